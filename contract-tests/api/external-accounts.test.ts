// External accounts: createCustomerExternalAccount, listCustomerExternalAccounts,
// getCustomerExternalAccount, deleteCustomerExternalAccount, createPlatformExternalAccount,
// listPlatformExternalAccounts, getPlatformExternalAccount, deletePlatformExternalAccount.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, expectInvalidRequest, isMock, itServer, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createExternalAccount, createPlatformExternalAccount, deleteCustomer, examples, newCustomerId, tokenWith } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';

type AccountInfo = components['schemas']['ExternalAccountInfo'];

const missingAccount = 'ExternalAccount:019542f5-b3e7-1d02-0000-0000000000ff';
const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';

const getCustomerAccount = (id: string) => api.GET('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: id } } });
const getPlatformAccount = (id: string) => api.GET('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: id } } });

async function listOf(customerId: string) {
  const { data } = await api.GET('/customers/external-accounts', { params: { query: { customerId, limit: 100 } } });
  return data?.data ?? [];
}

async function platformIds(currency?: string) {
  const { data } = await api.GET('/platform/external-accounts', { params: { query: { limit: 100, ...(currency === undefined ? {} : { currency }) } } });
  return (data?.data ?? []).map((a) => a.id);
}

describe('createCustomerExternalAccount', () => {
  it('201: registers a customer\'s US bank account, ACTIVE and name-matched', async () => {
    const customerId = await newCustomerId();
    const accountInfo = externalAccountInfo.usd();
    const account = await createExternalAccount({ customerId, currency: 'USD', platformAccountId: 'jane-checking-01', accountInfo });
    expect(account.id).toMatch(/^ExternalAccount:/);
    if (isMock) return;
    expect(account).toMatchObject({
      status: 'ACTIVE',
      currency: 'USD',
      customerId,
      platformAccountId: 'jane-checking-01',
      defaultUmaDepositAccount: false,
      accountInfo,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Jane Doe' },
    });
    expect((await getCustomerAccount(account.id)).data).toEqual(account);
    expect(await listOf(customerId)).toEqual([account]);
  });

  itServer('201: every account type with its currency; business names are verified by fullName too; wallets get no name check', async () => {
    const customerId = await newCustomerId();
    const cases: [string, AccountInfo][] = [
      ['EUR', externalAccountInfo.eur()],
      ['GBP', externalAccountInfo.gbp()],
      ['MXN', externalAccountInfo.mxn()],
      ['AED', externalAccountInfo.aed()],
      ['BTC', externalAccountInfo.spark()],
      ['USDC', externalAccountInfo.spark()],
    ];
    for (const [currency, accountInfo] of cases) {
      const account = await createExternalAccount({ customerId, currency, accountInfo });
      expect(account).toMatchObject({ status: 'ACTIVE', currency, accountInfo });
      if (accountInfo.accountType === 'SPARK_WALLET' || accountInfo.beneficiary === undefined) {
        expect(account).not.toHaveProperty('beneficiaryVerificationStatus');
        expect(account).not.toHaveProperty('beneficiaryVerifiedData');
      } else {
        expect(account).toMatchObject({ beneficiaryVerificationStatus: 'MATCHED', beneficiaryVerifiedData: { fullName: accountInfo.beneficiary.fullName } });
      }
    }
    expect(await listOf(customerId)).toHaveLength(cases.length);
  });

  it('201: an AED account needs only its iban and swiftCode; without a beneficiary it gets no name check', async () => {
    const customerId = isMock ? 'Customer:019542f5-b3e7-1d02-0000-000000000021' : await newCustomerId();
    const { iban, swiftCode } = externalAccountInfo.aed();
    const accountInfo = { accountType: 'AED_ACCOUNT', iban, swiftCode } as const;
    const account = await createExternalAccount({ customerId, currency: 'AED', accountInfo });
    if (isMock) return;
    expect(account).toMatchObject({ status: 'ACTIVE', currency: 'AED', accountInfo });
    expect(account.accountInfo).not.toHaveProperty('beneficiary');
    expect(account).not.toHaveProperty('beneficiaryVerificationStatus');
    expect((await getCustomerAccount(account.id)).data).toEqual(account);
  });

  it('201: a beneficiary needs only beneficiaryType and fullName, a business too; its address takes whatever parts are known', async () => {
    const customerId = isMock ? 'Customer:019542f5-b3e7-1d02-0000-000000000011' : await newCustomerId();
    const { iban, swiftCode } = externalAccountInfo.eur();
    const business = { accountType: 'EUR_ACCOUNT', iban, swiftCode, beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS' } } as const;
    const created = await createExternalAccount({ customerId, currency: 'EUR', accountInfo: business });
    const individual = externalAccountInfo.usd();
    const partialAddress = { ...individual, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe', address: { city: 'Lyon', country: 'FR' } } } as const;
    const withAddress = await createExternalAccount({ customerId, currency: 'USD', accountInfo: partialAddress });
    if (isMock) return;
    expect(created).toMatchObject({ accountInfo: business, beneficiaryVerificationStatus: 'MATCHED', beneficiaryVerifiedData: { fullName: 'Northwind Payouts SAS' } });
    expect(withAddress.accountInfo).toEqual(partialAddress);
    // The old business shape, named by legalName, is refused.
    const legacy = await raw('POST', '/customers/external-accounts', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId, currency: 'EUR', accountInfo: { ...externalAccountInfo.eur(), beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Northwind Payouts SAS' } } }),
    });
    expect(legacy.status).toBe(400);
  });

  itServer('201: sandbox suffixes 102, 103, 104, 106, 107 select the beneficiary name check', async () => {
    const customerId = await newCustomerId();
    const expected = { '102': 'NOT_MATCHED', '103': 'PARTIAL_MATCH', '104': 'PENDING', '106': 'UNSUPPORTED', '107': 'CHECKED_BY_RECEIVING_FI' } as const;
    for (const [suffix, status] of Object.entries(expected)) {
      for (const [currency, accountInfo] of [['USD', externalAccountInfo.usd(suffix)], ['EUR', externalAccountInfo.eur(suffix)], ['MXN', externalAccountInfo.mxn(suffix)]] as [string, AccountInfo][]) {
        const account = await createExternalAccount({ customerId, currency, accountInfo });
        expect(account.beneficiaryVerificationStatus).toBe(status);
        expect(account).not.toHaveProperty('beneficiaryVerifiedData');
        expect((await getCustomerAccount(account.id)).data?.beneficiaryVerificationStatus).toBe(status);
      }
    }
  });

  itServer('201: suffixes 002 to 005 (transfer failures) and other values are accepted and MATCHED', async () => {
    const customerId = await newCustomerId();
    for (const suffix of ['002', '003', '004', '005', '101', '108', '999']) {
      const account = await createExternalAccount({ customerId, currency: 'GBP', accountInfo: externalAccountInfo.gbp(suffix) });
      expect(account.beneficiaryVerificationStatus).toBe('MATCHED');
    }
  });

  itServer('400: sandbox suffix 105 is INVALID_BANK_ACCOUNT and nothing is stored', async () => {
    const customerId = await newCustomerId();
    for (const [currency, accountInfo] of [['USD', externalAccountInfo.usd('105')], ['AED', externalAccountInfo.aed('105')], ['MXN', externalAccountInfo.mxn('105')], ['BTC', externalAccountInfo.spark('105')]] as [string, AccountInfo][]) {
      const { response, error } = await api.POST('/customers/external-accounts', { body: { customerId, currency, accountInfo, defaultUmaDepositAccount: true } });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'INVALID_BANK_ACCOUNT' });
    }
    expect(await listOf(customerId)).toEqual([]);
  });

  itServer('201: platformAccountId comes from the request, else from accountInfo; the top level wins', async () => {
    const customerId = await newCustomerId();
    const inner = await createExternalAccount({ customerId, currency: 'USD', accountInfo: { ...externalAccountInfo.usd(), platformAccountId: 'inner-id' } });
    expect(inner.platformAccountId).toBe('inner-id');
    const both = await createExternalAccount({ customerId, currency: 'USD', platformAccountId: 'outer-id', accountInfo: { ...externalAccountInfo.usd(), platformAccountId: 'inner-id' } });
    expect(both.platformAccountId).toBe('outer-id');
    const none = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    expect(none).not.toHaveProperty('platformAccountId');
  });

  itServer('201: without customerId the account belongs to the platform', async () => {
    const account = await createExternalAccount({ currency: 'EUR', accountInfo: externalAccountInfo.eur() });
    expect(account).not.toHaveProperty('customerId');
    expect(account).not.toHaveProperty('defaultUmaDepositAccount');
    expect((await getPlatformAccount(account.id)).data).toEqual(account);
    expect((await getCustomerAccount(account.id)).response.status).toBe(404);
    expect(await platformIds('EUR')).toContain(account.id);
  });

  itServer('201: defaultUmaDepositAccount true replaces the customer\'s previous default', async () => {
    const customerId = await newCustomerId();
    const other = await newCustomerId();
    const otherDefault = await createExternalAccount({ customerId: other, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.usd() });
    const first = await createExternalAccount({ customerId, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.usd() });
    expect(first.defaultUmaDepositAccount).toBe(true);
    const second = await createExternalAccount({ customerId, currency: 'EUR', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.eur() });
    expect(second.defaultUmaDepositAccount).toBe(true);
    const firstAgain = (await getCustomerAccount(first.id)).data;
    expect(firstAgain?.defaultUmaDepositAccount).toBe(false);
    expect(Date.parse(firstAgain?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
    // A non-default registration leaves the default alone; another customer's default is untouched.
    const third = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    expect(third.defaultUmaDepositAccount).toBe(false);
    const defaults = (await listOf(customerId)).filter((a) => a.defaultUmaDepositAccount === true);
    expect(defaults.map((a) => a.id)).toEqual([second.id]);
    expect((await getCustomerAccount(otherDefault.id)).data?.defaultUmaDepositAccount).toBe(true);
  });

  itServer('409: a failed registration does not switch the default off (one transaction)', async () => {
    const customerId = await newCustomerId();
    const current = await createExternalAccount({ customerId, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.usd() });
    const duplicateOf = await createExternalAccount({ customerId, currency: 'EUR', accountInfo: externalAccountInfo.eur() });
    const { response } = await api.POST('/customers/external-accounts', {
      body: { customerId, currency: 'EUR', defaultUmaDepositAccount: true, accountInfo: duplicateOf.accountInfo },
    });
    expect(response.status).toBe(409);
    expect((await getCustomerAccount(current.id)).data?.defaultUmaDepositAccount).toBe(true);
  });

  itServer('409: the same account twice for one owner is EXTERNAL_ACCOUNT_ALREADY_EXISTS; other owners and deleted accounts do not count', async () => {
    const customerId = await newCustomerId();
    const accountInfo = externalAccountInfo.usd();
    const original = await createExternalAccount({ customerId, currency: 'USD', accountInfo });
    const { response, error } = await api.POST('/customers/external-accounts', { body: { customerId, currency: 'USD', platformAccountId: 'again', accountInfo: { ...accountInfo, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'J. Doe' } } } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_ALREADY_EXISTS' });
    expect(await listOf(customerId)).toHaveLength(1);
    // Same number at another bank, the same account of another customer or of the platform: new accounts.
    await createExternalAccount({ customerId, currency: 'USD', accountInfo: { ...accountInfo, routingNumber: '026009593' } });
    await createExternalAccount({ customerId: await newCustomerId(), currency: 'USD', accountInfo });
    await createExternalAccount({ currency: 'USD', accountInfo });
    // Once deleted, it can be registered again.
    await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: original.id } } });
    const again = await createExternalAccount({ customerId, currency: 'USD', accountInfo });
    expect(again.id).not.toBe(original.id);
  });

  itServer('409: wallets and IBAN accounts are duplicates by address and IBAN', async () => {
    const customerId = await newCustomerId();
    const wallet = externalAccountInfo.spark();
    await createExternalAccount({ customerId, currency: 'BTC', accountInfo: wallet });
    const again = await api.POST('/customers/external-accounts', { body: { customerId, currency: 'BTC', accountInfo: wallet } });
    expect(again.response.status).toBe(409);
    const iban = externalAccountInfo.aed();
    await createExternalAccount({ customerId, currency: 'AED', accountInfo: iban });
    const twice = await api.POST('/customers/external-accounts', { body: { customerId, currency: 'AED', accountInfo: { ...iban, swiftCode: 'BOMLAEAD' } } });
    expect(twice.error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_ALREADY_EXISTS' });
  });

  it('400: rejects an invalid body with field errors', async () => {
    const res = await raw('POST', '/customers/external-accounts', jsonBody({ currency: 'usd', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: 'abc', routingNumber: '1' } }));
    await expectInvalidRequest(res);
    const unknownType = await raw('POST', '/customers/external-accounts', jsonBody({ currency: 'CAD', accountInfo: { accountType: 'CAD_ACCOUNT', accountNumber: '123' } }));
    await expectInvalidRequest(unknownType);
    const extra = await raw('POST', '/customers/external-accounts', jsonBody({ currency: 'USD', status: 'ACTIVE', accountInfo: externalAccountInfo.usd() }));
    await expectInvalidRequest(extra);
  });

  itServer('400: CURRENCY_MISMATCH when currency and accountType disagree', async () => {
    const customerId = await newCustomerId();
    for (const [currency, accountInfo] of [['EUR', externalAccountInfo.usd()], ['USD', externalAccountInfo.gbp()], ['USD', externalAccountInfo.spark()], ['BTC', externalAccountInfo.mxn()]] as [string, AccountInfo][]) {
      const { response, error } = await api.POST('/customers/external-accounts', { body: { customerId, currency, accountInfo } });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'CURRENCY_MISMATCH' });
    }
    expect(await listOf(customerId)).toEqual([]);
  });

  itServer('400: defaultUmaDepositAccount without customerId is INVALID_INPUT', async () => {
    const accountInfo = externalAccountInfo.usd();
    const { response, error } = await api.POST('/customers/external-accounts', { body: { currency: 'USD', defaultUmaDepositAccount: true, accountInfo } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_INPUT' });
    // Nothing was registered: the same account can still be registered for the platform.
    await createExternalAccount({ currency: 'USD', accountInfo });
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/customers/external-accounts', { auth: false, ...jsonBody({ currency: 'USD', accountInfo: externalAccountInfo.usd() }) });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });

  itServer('403: needs MANAGE', async () => {
    const customerId = await newCustomerId();
    const viewer = await tokenWith(['VIEW', 'TRANSACT']);
    const { response, error } = await viewer.POST('/customers/external-accounts', { body: { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    expect(await listOf(customerId)).toEqual([]);
  });

  itServer('404: unknown customer', async () => {
    const { response, error } = await api.POST('/customers/external-accounts', { body: { customerId: missingCustomer, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });

  itServer('410: deleted customer', async () => {
    const customerId = await newCustomerId();
    await deleteCustomer(customerId);
    const { response, error } = await api.POST('/customers/external-accounts', { body: { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(response.status).toBe(410);
    expect(error).toMatchObject({ code: 'CUSTOMER_DELETED' });
  });
});

describe('listCustomerExternalAccounts', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/customers/external-accounts');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: filters by customer and currency, newest first, pages with cursors, hides deleted and platform accounts', async () => {
    const customerId = await newCustomerId();
    const a = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const b = await createExternalAccount({ customerId, currency: 'EUR', accountInfo: externalAccountInfo.eur() });
    const c = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const d = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: c.id } } });
    const platformAccount = await createExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd() });

    expect((await listOf(customerId)).map((x) => x.id)).toEqual([d.id, b.id, a.id]);
    const usd = await api.GET('/customers/external-accounts', { params: { query: { customerId, currency: 'USD' } } });
    expect(usd.data?.data.map((x) => x.id)).toEqual([d.id, a.id]);
    expect(usd.data?.totalCount).toBe(2);

    const first = await api.GET('/customers/external-accounts', { params: { query: { customerId, limit: 2 } } });
    expect(first.data).toMatchObject({ hasMore: true, totalCount: 3 });
    const second = await api.GET('/customers/external-accounts', { params: { query: { customerId, limit: 2, cursor: first.data?.nextCursor ?? '' } } });
    expect(second.data).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.data?.data.map((x) => x.id)).toEqual([a.id]);

    const all = await api.GET('/customers/external-accounts', { params: { query: { currency: 'USD', limit: 100 } } });
    for (const account of all.data?.data ?? []) {
      expect(account.customerId).toEqual(expect.stringMatching(/^Customer:/));
      expect(account.status).not.toBe('INACTIVE');
    }
    expect(all.data?.data.map((x) => x.id)).not.toContain(platformAccount.id);
  });

  itServer('200: status=INACTIVE lists the deleted accounts the default list leaves out; another status only its own', async () => {
    const customerId = await newCustomerId();
    const live = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const deleted = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: deleted.id } } });
    const list = async (status?: components['schemas']['ExternalAccountStatus']) =>
      (await api.GET('/customers/external-accounts', { params: { query: { customerId, ...(status === undefined ? {} : { status }) } } })).data;
    expect((await list())?.data.map((a) => a.id)).toEqual([live.id]);
    expect(await list('INACTIVE')).toMatchObject({ data: [{ id: deleted.id, status: 'INACTIVE' }], totalCount: 1 });
    expect((await list('ACTIVE'))?.data.map((a) => a.id)).toEqual([live.id]);
    expect(await list('UNDER_REVIEW')).toMatchObject({ data: [], totalCount: 0 });
    const platformGone = await createExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd() });
    await api.DELETE('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: platformGone.id } } });
    const platformInactive = await api.GET('/platform/external-accounts', { params: { query: { status: 'INACTIVE', limit: 100 } } });
    expect(platformInactive.data?.data.map((a) => a.id)).toContain(platformGone.id);
    expect((await raw('GET', '/customers/external-accounts?status=DELETED')).status).toBe(400);
  });

  itServer('200: a customerId that matches no customer gives an empty page', async () => {
    const { data } = await api.GET('/customers/external-accounts', { params: { query: { customerId: missingCustomer } } });
    expect(data).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
  });

  it('400: rejects bad filters and limits', async () => {
    for (const query of ['limit=0', 'limit=101', 'customerId=42', 'currency=us']) {
      const res = await raw('GET', `/customers/external-accounts?${query}`);
      expect(res.status).toBe(400);
    }
  });

  itServer('400: rejects an unknown query parameter', async () => {
    const res = await raw('GET', '/customers/external-accounts?type=INTERNAL_FIAT');
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_INPUT');
  });

  itServer('400: rejects a forged cursor', async () => {
    const res = await raw('GET', '/customers/external-accounts?cursor=eyJ4IjoxfQ');
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_CURSOR');
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/customers/external-accounts', { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { response } = await (await tokenWith(['MANAGE'])).GET('/customers/external-accounts');
    expect(response.status).toBe(403);
  });
});

describe('getCustomerExternalAccount', () => {
  it('200: returns the account', async () => {
    const id = isMock ? 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006' : (await createExternalAccount({ customerId: await newCustomerId(), currency: 'MXN', accountInfo: externalAccountInfo.mxn() })).id;
    const { data, response } = await getCustomerAccount(id);
    expect(response.status).toBe(200);
    expect(data?.customerId).toEqual(expect.stringMatching(/^Customer:/));
  });

  itServer('404: unknown account, and an account of the platform', async () => {
    const unknown = await getCustomerAccount(missingAccount);
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    const platformAccount = await createExternalAccount({ currency: 'GBP', accountInfo: externalAccountInfo.gbp() });
    expect((await getCustomerAccount(platformAccount.id)).error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
  });

  it('400: rejects a malformed id', async () => {
    expect((await raw('GET', '/customers/external-accounts/InternalAccount:019542f5-b3e7-1d02-0000-000000000005')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/customers/external-accounts/${missingAccount}`, { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { response } = await (await tokenWith(['TRANSACT'])).GET('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: missingAccount } } });
    expect(response.status).toBe(403);
  });
});

describe('deleteCustomerExternalAccount', () => {
  it('204: deletes the account; it stays readable as INACTIVE', async () => {
    const id = isMock ? 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006' : (await createExternalAccount({ customerId: await newCustomerId(), currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
    const { response } = await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: id } } });
    expect(response.status).toBe(204);
    if (isMock) return;
    const { data } = await getCustomerAccount(id);
    expect(data?.status).toBe('INACTIVE');
    expect(await listOf(data?.customerId ?? '')).toEqual([]);
  });

  itServer('204: deleting the default account leaves the customer without a default; deleting again is 204', async () => {
    const customerId = await newCustomerId();
    const keep = await createExternalAccount({ customerId, currency: 'EUR', accountInfo: externalAccountInfo.eur() });
    const byDefault = await createExternalAccount({ customerId, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.usd() });
    const path = { params: { path: { externalAccountId: byDefault.id } } };
    expect((await api.DELETE('/customers/external-accounts/{externalAccountId}', path)).response.status).toBe(204);
    const deleted = (await getCustomerAccount(byDefault.id)).data;
    expect(deleted).toMatchObject({ status: 'INACTIVE', defaultUmaDepositAccount: false });
    expect(Date.parse(deleted?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(byDefault.updatedAt));
    expect((await listOf(customerId)).map((a) => [a.id, a.defaultUmaDepositAccount])).toEqual([[keep.id, false]]);
    expect((await api.DELETE('/customers/external-accounts/{externalAccountId}', path)).response.status).toBe(204);
    expect((await getCustomerAccount(byDefault.id)).data?.updatedAt).toBe(deleted?.updatedAt);
    // A new default can be set afterwards.
    const next = await createExternalAccount({ customerId, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: externalAccountInfo.usd() });
    expect(next.defaultUmaDepositAccount).toBe(true);
  });

  itServer('404: unknown account, and an account of the platform', async () => {
    const unknown = await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: missingAccount } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    const platformAccount = await createExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const wrongPath = await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: platformAccount.id } } });
    expect(wrongPath.response.status).toBe(404);
    expect((await getPlatformAccount(platformAccount.id)).data?.status).toBe('ACTIVE');
  });

  it('401: requires credentials', async () => {
    expect((await raw('DELETE', `/customers/external-accounts/${missingAccount}`, { auth: false })).status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const account = await createExternalAccount({ customerId: await newCustomerId(), currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const { response } = await (await tokenWith(['VIEW', 'TRANSACT'])).DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: account.id } } });
    expect(response.status).toBe(403);
    expect((await getCustomerAccount(account.id)).data?.status).toBe('ACTIVE');
  });
});

describe('createPlatformExternalAccount', () => {
  it('201: registers the platform\'s treasury account', async () => {
    const accountInfo = externalAccountInfo.eur();
    const account = await createPlatformExternalAccount({ currency: 'EUR', platformAccountId: 'treasury-eur-01', accountInfo });
    expect(account.id).toMatch(/^ExternalAccount:/);
    if (isMock) return;
    expect(account).toMatchObject({
      status: 'ACTIVE',
      currency: 'EUR',
      platformAccountId: 'treasury-eur-01',
      accountInfo,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Northwind Payouts SAS' },
    });
    expect(account).not.toHaveProperty('customerId');
    expect(account).not.toHaveProperty('defaultUmaDepositAccount');
    expect((await getPlatformAccount(account.id)).data).toEqual(account);
    expect(await platformIds()).toContain(account.id);
  });

  itServer('201: sandbox name check as for customers; 400 INVALID_BANK_ACCOUNT on 105, nothing stored', async () => {
    const partial = await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd('103') });
    expect(partial.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
    const accountInfo = externalAccountInfo.usd('105');
    const { response, error } = await api.POST('/platform/external-accounts', { body: { currency: 'USD', accountInfo } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_BANK_ACCOUNT' });
    const { data } = await api.GET('/platform/external-accounts', { params: { query: { currency: 'USD', limit: 100 } } });
    expect(data?.data.filter((a) => a.accountInfo.accountType === 'USD_ACCOUNT' && a.accountInfo.accountNumber === accountInfo.accountNumber)).toEqual([]);
  });

  itServer('409: the platform registering the same account twice', async () => {
    const accountInfo = externalAccountInfo.gbp();
    await createPlatformExternalAccount({ currency: 'GBP', accountInfo });
    const { response, error } = await api.POST('/platform/external-accounts', { body: { currency: 'GBP', accountInfo } });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_ALREADY_EXISTS' });
    // Same conflict through the customers' endpoint without customerId: it is the same owner.
    const viaCustomers = await api.POST('/customers/external-accounts', { body: { currency: 'GBP', accountInfo } });
    expect(viaCustomers.response.status).toBe(409);
  });

  itServer('400: CURRENCY_MISMATCH', async () => {
    const { response, error } = await api.POST('/platform/external-accounts', { body: { currency: 'EUR', accountInfo: externalAccountInfo.aed() } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'CURRENCY_MISMATCH' });
  });

  it('400: the request is closed: no customerId, no defaultUmaDepositAccount', async () => {
    for (const extra of [{ customerId: examples.individualCustomerId }, { defaultUmaDepositAccount: true }]) {
      const res = await raw('POST', '/platform/external-accounts', jsonBody({ currency: 'USD', accountInfo: externalAccountInfo.usd(), ...extra }));
      await expectInvalidRequest(res);
    }
  });

  it('401: requires credentials', async () => {
    expect((await raw('POST', '/platform/external-accounts', { auth: false, ...jsonBody({ currency: 'USD', accountInfo: externalAccountInfo.usd() }) })).status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const { response } = await (await tokenWith(['VIEW', 'TRANSACT'])).POST('/platform/external-accounts', { body: { currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(response.status).toBe(403);
  });
});

describe('listPlatformExternalAccounts', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/platform/external-accounts');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: only live platform accounts, filtered by currency, newest first', async () => {
    const older = await createExternalAccount({ currency: 'MXN', accountInfo: externalAccountInfo.mxn() });
    const newer = await createExternalAccount({ currency: 'MXN', accountInfo: externalAccountInfo.mxn() });
    const gone = await createExternalAccount({ currency: 'MXN', accountInfo: externalAccountInfo.mxn() });
    await api.DELETE('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: gone.id } } });
    const customers = await createExternalAccount({ customerId: await newCustomerId(), currency: 'MXN', accountInfo: externalAccountInfo.mxn() });
    const ids = await platformIds('MXN');
    expect(ids).toContain(older.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(gone.id);
    expect(ids).not.toContain(customers.id);
    const { data } = await api.GET('/platform/external-accounts', { params: { query: { currency: 'MXN', limit: 1 } } });
    expect(data).toMatchObject({ hasMore: true, totalCount: ids.length, nextCursor: expect.any(String) });
    for (const account of (await api.GET('/platform/external-accounts', { params: { query: { limit: 100 } } })).data?.data ?? []) {
      expect(account).not.toHaveProperty('customerId');
    }
  });

  it('400: rejects a bad limit', async () => {
    expect((await raw('GET', '/platform/external-accounts?limit=500')).status).toBe(400);
  });

  itServer('400: rejects a customerId filter (platform accounts have no customer)', async () => {
    expect((await raw('GET', `/platform/external-accounts?customerId=${examples.individualCustomerId}`)).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/platform/external-accounts', { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { response } = await (await tokenWith(['MANAGE'])).GET('/platform/external-accounts');
    expect(response.status).toBe(403);
  });
});

describe('getPlatformExternalAccount', () => {
  it('200: returns the account', async () => {
    const id = isMock ? 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000036' : (await createExternalAccount({ currency: 'AED', accountInfo: externalAccountInfo.aed() })).id;
    const { data, response } = await getPlatformAccount(id);
    expect(response.status).toBe(200);
    expect(data?.id).toMatch(/^ExternalAccount:/);
    if (!isMock) expect(data).not.toHaveProperty('customerId');
  });

  itServer('404: unknown account, and a customer\'s account', async () => {
    expect((await getPlatformAccount(missingAccount)).error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    const account = await createExternalAccount({ customerId: await newCustomerId(), currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const { response } = await getPlatformAccount(account.id);
    expect(response.status).toBe(404);
  });

  it('400: rejects a malformed id', async () => {
    expect((await raw('GET', '/platform/external-accounts/treasury')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/platform/external-accounts/${missingAccount}`, { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { response } = await (await tokenWith(['MANAGE'])).GET('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: missingAccount } } });
    expect(response.status).toBe(403);
  });
});

describe('deletePlatformExternalAccount', () => {
  it('204: deletes the account; it stays readable as INACTIVE and can be registered again', async () => {
    const accountInfo = externalAccountInfo.spark();
    const id = isMock ? 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000036' : (await createExternalAccount({ currency: 'BTC', accountInfo })).id;
    const path = { params: { path: { externalAccountId: id } } };
    expect((await api.DELETE('/platform/external-accounts/{externalAccountId}', path)).response.status).toBe(204);
    if (isMock) return;
    expect((await getPlatformAccount(id)).data?.status).toBe('INACTIVE');
    expect(await platformIds('BTC')).not.toContain(id);
    expect((await api.DELETE('/platform/external-accounts/{externalAccountId}', path)).response.status).toBe(204);
    const again = await createExternalAccount({ currency: 'BTC', accountInfo });
    expect(again.status).toBe('ACTIVE');
  });

  itServer('404: unknown account, and a customer\'s account', async () => {
    const unknown = await api.DELETE('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: missingAccount } } });
    expect(unknown.error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    const account = await createExternalAccount({ customerId: await newCustomerId(), currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const { response } = await api.DELETE('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: account.id } } });
    expect(response.status).toBe(404);
    expect((await getCustomerAccount(account.id)).data?.status).toBe('ACTIVE');
  });

  it('401: requires credentials', async () => {
    expect((await raw('DELETE', `/platform/external-accounts/${missingAccount}`, { auth: false })).status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const account = await createExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const { response } = await (await tokenWith(['VIEW'])).DELETE('/platform/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: account.id } } });
    expect(response.status).toBe(403);
  });
});
