// Internal accounts: listCustomerInternalAccounts, listPlatformInternalAccounts, getInternalAccount.
// (updateInternalAccount and exportInternalAccount, signed by the wallet owner: embedded-wallet.test.ts.)
// Pages and cursors, 403s and 404s are the conformance kit's pagination.*, auth.* and errors.*
// checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import { api, isMock, itServer, raw } from '../support/api.ts';
import { createIndividualCustomer, customerInternalAccounts } from '../support/factories.ts';
import { codeOf } from '../support/raw-requests.ts';

const missingAccount = 'InternalAccount:019542f5-b3e7-1d02-0000-0000000000ff';
const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';

/** ISO 13616 mod-97 check: a well-formed IBAN leaves remainder 1. */
function ibanIsValid(iban: string): boolean {
  const numeric = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const ch of numeric) remainder = (remainder * 10 + Number(ch)) % 97;
  return remainder === 1;
}

describe('listCustomerInternalAccounts', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/customers/internal-accounts');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: a new customer has one ACTIVE account per currency, empty, with funding instructions', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR', 'GBP', 'MXN', 'AED', 'BTC'] });
    const accounts = await customerInternalAccounts(customer.id);
    expect(accounts.map((a) => a.balance.currency.code).sort()).toEqual(['AED', 'BTC', 'EUR', 'GBP', 'MXN', 'USD']);
    for (const account of accounts) {
      expect(account).toMatchObject({ customerId: customer.id, status: 'ACTIVE', balance: { amount: 0 } });
      expect(account.type).toBe(account.balance.currency.code === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT');
      expect(account).not.toHaveProperty('privateEnabled');
      expect(account.fundingPaymentInstructions).toHaveLength(1);
    }
    const byCode = Object.fromEntries(accounts.map((a) => [a.balance.currency.code, a]));
    expect(byCode.USD?.balance.currency).toEqual({ code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 });
    expect(byCode.BTC?.balance.currency).toMatchObject({ code: 'BTC', decimals: 8 });

    const usd = byCode.USD?.fundingPaymentInstructions[0];
    expect(usd).toMatchObject({
      accountOrWalletInfo: { accountType: 'USD_ACCOUNT', routingNumber: expect.stringMatching(/^\d{9}$/), accountNumber: expect.stringMatching(/^\d+$/), reference: expect.any(String) },
      isPlatformAccount: true,
    });
    expect(usd?.accountOrWalletInfo.paymentRails).toEqual(expect.arrayContaining(['ACH', 'WIRE']));
    const eur = byCode.EUR?.fundingPaymentInstructions[0]?.accountOrWalletInfo;
    expect(eur).toMatchObject({ accountType: 'EUR_ACCOUNT', swiftCode: expect.any(String), reference: expect.any(String) });
    expect(ibanIsValid(eur?.iban ?? '')).toBe(true);
    expect(byCode.GBP?.fundingPaymentInstructions[0]?.accountOrWalletInfo).toMatchObject({ accountType: 'GBP_ACCOUNT', sortCode: expect.stringMatching(/^\d{6}$/) });
    expect(byCode.MXN?.fundingPaymentInstructions[0]?.accountOrWalletInfo).toMatchObject({ accountType: 'MXN_ACCOUNT', clabe: expect.stringMatching(/^\d{18}$/) });
    const aed = byCode.AED?.fundingPaymentInstructions[0]?.accountOrWalletInfo;
    expect(aed?.iban).toMatch(/^AE\d{21}$/);
    expect(ibanIsValid(aed?.iban ?? '')).toBe(true);
    expect(byCode.BTC?.fundingPaymentInstructions[0]).toMatchObject({ accountOrWalletInfo: { accountType: 'SPARK_WALLET', assetType: 'BTC' }, isPlatformAccount: false });
    // References tell deposits apart: every account has its own.
    const references = accounts.flatMap((a) => a.fundingPaymentInstructions.map((f) => f.accountOrWalletInfo.reference)).filter((r) => r !== undefined);
    expect(new Set(references).size).toBe(references.length);
  });

  itServer('200: lists only customers\' accounts, filtered by currency and type', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR', 'BTC'] });
    const all = await api.GET('/customers/internal-accounts', { params: { query: { limit: 100 } } });
    for (const account of all.data?.data ?? []) expect(account.customerId).toEqual(expect.stringMatching(/^Customer:/));

    const usd = await api.GET('/customers/internal-accounts', { params: { query: { customerId: customer.id, currency: 'USD' } } });
    expect(usd.data?.totalCount).toBe(1);
    expect(usd.data?.data[0]?.balance.currency.code).toBe('USD');
    const crypto = await api.GET('/customers/internal-accounts', { params: { query: { customerId: customer.id, type: 'INTERNAL_CRYPTO' } } });
    expect(crypto.data?.data.map((a) => a.balance.currency.code)).toEqual(['BTC']);
    const wallets = await api.GET('/customers/internal-accounts', { params: { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } } });
    expect(wallets.data).toMatchObject({ data: [], totalCount: 0, hasMore: false });
  });

  itServer('200: a customerId that matches no customer gives an empty page', async () => {
    const { data } = await api.GET('/customers/internal-accounts', { params: { query: { customerId: missingCustomer } } });
    expect(data).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
  });

  it('400: rejects an unknown type, a malformed customerId and a limit outside 1..100', async () => {
    for (const query of ['type=SAVINGS', 'customerId=cust-1', 'limit=0', 'limit=101', 'currency=usd']) {
      const res = await raw('GET', `/customers/internal-accounts?${query}`);
      expect(res.status).toBe(400);
      expect(await codeOf(res)).toBe('INVALID_INPUT');
    }
  });

  it('401: requires credentials', async () => {
    const res = await raw('GET', '/customers/internal-accounts', { auth: false });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });
});

describe('listPlatformInternalAccounts', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/platform/internal-accounts');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: the platform\'s own accounts, opened at bootstrap, without customerId', async () => {
    await createIndividualCustomer({ currencies: ['USD'] });
    const { data } = await api.GET('/platform/internal-accounts', { params: { query: { limit: 100 } } });
    // The bootstrap currencies (other areas may open more, for example when the platform adds a currency).
    expect(data?.data.map((a) => a.balance.currency.code)).toEqual(expect.arrayContaining(['AED', 'BTC', 'EUR', 'GBP', 'MXN', 'USD']));
    expect(data?.totalCount).toBe(data?.data.length);
    for (const account of data?.data ?? []) {
      expect(account).not.toHaveProperty('customerId');
      expect(account.status).toBe('ACTIVE');
      expect(account.type).toBe(account.balance.currency.code === 'BTC' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT');
      expect(account.fundingPaymentInstructions.length).toBeGreaterThan(0);
    }
  });

  itServer('200: filters by currency and type', async () => {
    const usd = await api.GET('/platform/internal-accounts', { params: { query: { currency: 'USD' } } });
    expect(usd.data?.totalCount).toBe(1);
    expect(usd.data?.data[0]?.fundingPaymentInstructions[0]?.accountOrWalletInfo.accountType).toBe('USD_ACCOUNT');
    const crypto = await api.GET('/platform/internal-accounts', { params: { query: { type: 'INTERNAL_CRYPTO' } } });
    expect(crypto.data?.data.map((a) => a.balance.currency.code)).toEqual(['BTC']);
    const none = await api.GET('/platform/internal-accounts', { params: { query: { currency: 'NGN' } } });
    expect(none.data).toMatchObject({ data: [], totalCount: 0 });
  });

  it('400: rejects an unknown type', async () => {
    expect((await raw('GET', '/platform/internal-accounts?type=CHECKING')).status).toBe(400);
  });

  itServer('400: rejects a customerId filter (platform accounts have no customer)', async () => {
    expect((await raw('GET', `/platform/internal-accounts?customerId=${missingCustomer}`)).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/platform/internal-accounts', { auth: false })).status).toBe(401);
  });
});

describe('getInternalAccount', () => {
  it('200: returns the account with balance and funding instructions', async () => {
    const list = await api.GET('/platform/internal-accounts', { params: { query: { currency: 'USD' } } });
    const id = list.data?.data[0]?.id ?? missingAccount;
    const { data, response } = await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId: id } } });
    expect(response.status).toBe(200);
    expect(data?.balance.currency.code).toBe('USD');
    if (isMock) return;
    expect(data).toEqual(list.data?.data[0]);
  });

  itServer('200: a customer\'s account, with the same funding instructions on every read', async () => {
    const customer = await createIndividualCustomer({ currencies: ['EUR'] });
    const [account] = await customerInternalAccounts(customer.id);
    const first = await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId: account?.id ?? '' } } });
    const second = await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId: account?.id ?? '' } } });
    expect(first.data).toEqual(account);
    expect(second.data?.fundingPaymentInstructions).toEqual(first.data?.fundingPaymentInstructions);
    expect(first.data).toMatchObject({ customerId: customer.id, balance: { amount: 0, currency: { code: 'EUR' } } });
  });

  it('400: rejects a malformed id', async () => {
    for (const id of ['not-an-id', 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006']) {
      expect((await raw('GET', `/internal-accounts/${id}`)).status).toBe(400);
    }
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/internal-accounts/${missingAccount}`, { auth: false })).status).toBe(401);
  });
});
