// Same-currency transfers: createTransferOut, createTransferIn. The rules and sandbox outcomes of
// the two operations the conformance kit does not check, read back through the API: the internal
// account's balance to the minor unit, the transaction (GET /transactions/{id}) and the list. The
// kit's transfers.*, idempotency.* and auth.* checks (conformance-kit.test.ts) cover the outcomes
// 002 to 005 of USD accounts, the refusals between two customers, the replays and the 403s.
// Delayed outcomes beyond a few seconds (suffix 005) need the clock moved:
// ../server/transfer-outcomes.test.ts.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, expectInvalidRequest, idempotencyKey, isMock, itServer, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import {
  balanceOf,
  created,
  createExternalAccount,
  createIndividualCustomer,
  createPlatformExternalAccount,
  customerInternalAccount,
  customerWithExternalAccount,
  examples,
  fund,
  getTransaction,
  listTransactions,
  platformInternalAccount,
  type Transaction,
  type TransferCurrency,
  transferIn,
  transferOut,
} from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';

type PaymentRail = components['schemas']['PaymentRail'];

const missingInternal = 'InternalAccount:019542f5-b3e7-1d02-0000-0000000000ff';
const missingExternal = 'ExternalAccount:019542f5-b3e7-1d02-0000-0000000000ff';
/** The spec's example external account (what the mock's examples name). */
const exampleExternal = 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000006';

/** Every transaction that names the external account (only transfers do). */
const transfersWith = async (externalAccountId: string) => listTransactions({ accountId: externalAccountId, limit: 100 });

/** Nothing was recorded for the pair: no transaction names the external account, the internal one holds `balance`. */
async function expectNothingRecorded(internalId: string, externalId: string, balance: number) {
  expect(await balanceOf(internalId)).toBe(balance);
  const page = await transfersWith(externalId);
  expect(page.totalCount).toBe(0);
  expect(page.data).toEqual([]);
}

/** A transaction's body of a 201, or a failure naming what the server answered. */
/** A customer holding USD and EUR, with their USD internal account funded with `funding`. */
async function twoCurrencyCustomer(funding: number) {
  const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR'] });
  const usd = await customerInternalAccount(customer.id, 'USD');
  await fund(usd.id, funding);
  return { customer, usd };
}

describe('createTransferOut', () => {
  it('201: sends to the customer\'s own bank account: COMPLETED at once, debited to the minor unit', async () => {
    const pair = isMock ? undefined : await customerWithExternalAccount('000', { funding: 100_000 });
    const result = await transferOut({
      source: { accountId: pair?.internal.id ?? examples.internalAccountId },
      destination: { accountId: pair?.external.id ?? exampleExternal },
      amount: 12_550,
      remittanceInformation: 'Withdrawal 2025-10-13',
      purposeOfPayment: 'SELF',
    });
    const tx = created(result);
    expect(tx).toMatchObject({ type: 'OUTGOING', direction: 'DEBIT', status: 'COMPLETED' });
    if (pair === undefined) return;
    const { customer, internal, external } = pair;
    expect(tx).toMatchObject({
      source: { sourceType: 'ACCOUNT', accountId: internal.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id, currency: 'USD' },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      sentAmount: { amount: 12_550, currency: internal.balance.currency },
      receivedAmount: { amount: 12_550, currency: internal.balance.currency },
      // No rail asked for: the USD_ACCOUNT default.
      paymentRail: 'ACH',
    });
    expect(tx.id).toMatch(/^Transaction:[0-9a-f-]{36}$/);
    expect(tx.reconciliationInstructions?.reference).toEqual(expect.any(String));
    expect(tx).not.toHaveProperty('failureReason');
    expect(Date.parse(tx.settledAt ?? '')).toBeGreaterThanOrEqual(Date.parse(tx.createdAt));
    expect(result.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(internal.id)).toBe(100_000 - 12_550);
    // Read back: the transaction as it is now, and the list.
    expect(await getTransaction(tx.id)).toEqual(tx);
    const page = await transfersWith(external.id);
    expect(page.totalCount).toBe(1);
    expect(page.data).toEqual([tx]);
  });

  itServer('201: the whole balance can be sent, to 0', async () => {
    const { internal, external } = await customerWithExternalAccount('000', { funding: 4_321 });
    const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 4_321 }));
    expect(tx.status).toBe('COMPLETED');
    expect(await balanceOf(internal.id)).toBe(0);
  });

  describe('sandbox outcome by the last 3 digits of the account number', () => {
    itServer('a PROCESSING transfer holds its amount: the next transfer cannot spend it', async () => {
      const { customer, internal, external } = await customerWithExternalAccount('004', { funding: 1_000 });
      const other = await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
      created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 600 }));
      const refused = await transferOut({ source: { accountId: internal.id }, destination: { accountId: other.id }, amount: 600 });
      expect(refused.response.status).toBe(400);
      expect(refused.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      expect(await balanceOf(internal.id)).toBe(400);
      expect((await transfersWith(other.id)).totalCount).toBe(0);
    });

    // The primary identifier of each account type: IBAN, CLABE, wallet address.
    itServer.each([
      { currency: 'EUR', suffix: '000', status: 'COMPLETED', rail: 'SEPA' },
      { currency: 'EUR', suffix: '003', status: 'FAILED', failureReason: 'ACCOUNT_CLOSED' },
      { currency: 'MXN', suffix: '000', status: 'COMPLETED', rail: 'SPEI' },
      { currency: 'MXN', suffix: '002', status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' },
      { currency: 'BTC', suffix: '000', status: 'COMPLETED', rail: 'SPARK' },
      { currency: 'BTC', suffix: '005', status: 'PENDING', rail: 'SPARK' },
    ] as { currency: TransferCurrency; suffix: string; status: Transaction['status']; failureReason?: string; rail?: PaymentRail }[])('$currency account ending in $suffix: $status, on its default rail when not refused', async ({ currency, suffix, status, failureReason, rail }) => {
      const { internal, external } = await customerWithExternalAccount(suffix, { currency, funding: 10_000 });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 2_500 }));
      expect(tx).toMatchObject({ status, source: { accountId: internal.id, currency }, destination: { accountId: external.id, currency } });
      expect(tx.failureReason).toBe(failureReason);
      if (rail !== undefined) {
        expect(tx.paymentRail).toBe(rail);
        expect(tx.sentAmount).toEqual({ amount: 2_500, currency: internal.balance.currency });
      }
      expect(await balanceOf(internal.id)).toBe(status === 'FAILED' ? 10_000 : 7_500);
    });
  });

  describe('payment rails', () => {
    itServer.each(['ACH', 'WIRE', 'RTP', 'FEDNOW'] as const)('201: a USD account receives on %s, which the transaction shows', async (paymentRail) => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 10_000 });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id, paymentRail }, amount: 1_000 }));
      expect(tx).toMatchObject({ status: 'COMPLETED', paymentRail });
      expect((await getTransaction(tx.id)).paymentRail).toBe(paymentRail);
      expect(await balanceOf(internal.id)).toBe(9_000);
    });

    itServer.each([
      ['USD', 'SEPA'],
      ['USD', 'SPEI'],
      ['USD', 'SPARK'],
      ['USD', 'SWIFT'],
      ['EUR', 'ACH'],
      ['EUR', 'FASTER_PAYMENTS'],
      ['MXN', 'WIRE'],
      ['BTC', 'ACH'],
    ] as [TransferCurrency, PaymentRail][])('400: a %s account cannot receive on %s: INVALID_INPUT, nothing recorded', async (currency, paymentRail) => {
      const { internal, external } = await customerWithExternalAccount('000', { currency, funding: 10_000 });
      const { response, error } = await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id, paymentRail }, amount: 1_000 });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'INVALID_INPUT' });
      await expectNothingRecorded(internal.id, external.id, 10_000);
    });
  });

  describe('refusals', () => {
    itServer('400 INSUFFICIENT_FUNDS: an empty account, whatever the sandbox suffix', async () => {
      for (const suffix of ['000', '004', '005']) {
        const { internal, external } = await customerWithExternalAccount(suffix);
        const { response, error } = await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1 });
        expect(response.status, suffix).toBe(400);
        expect(error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
        await expectNothingRecorded(internal.id, external.id, 0);
      }
    });

    itServer('400 ACCOUNT_OWNER_MISMATCH: the platform\'s balance to a customer\'s account, a customer\'s balance to the platform\'s account', async () => {
      const platformUsd = await platformInternalAccount('USD');
      const platformExternal = await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
      const customer = await customerWithExternalAccount('000', { funding: 10_000 });
      await fund(platformUsd.id, 5_000);
      const platformBefore = await balanceOf(platformUsd.id);

      const fromPlatform = await transferOut({ source: { accountId: platformUsd.id }, destination: { accountId: customer.external.id }, amount: 1_000 });
      expect(fromPlatform.response.status).toBe(400);
      expect(fromPlatform.error).toMatchObject({ code: 'ACCOUNT_OWNER_MISMATCH' });
      const toPlatform = await transferOut({ source: { accountId: customer.internal.id }, destination: { accountId: platformExternal.id }, amount: 1_000 });
      expect(toPlatform.response.status).toBe(400);
      expect(toPlatform.error).toMatchObject({ code: 'ACCOUNT_OWNER_MISMATCH' });

      expect(await balanceOf(platformUsd.id)).toBe(platformBefore);
      await expectNothingRecorded(customer.internal.id, customer.external.id, 10_000);
      expect((await transfersWith(platformExternal.id)).totalCount).toBe(0);
    });

    it('401: requires credentials', async () => {
      const body = { source: { accountId: examples.internalAccountId }, destination: { accountId: exampleExternal }, amount: 100 };
      const res = await raw('POST', '/transfer-out', { auth: false, ...jsonBody(body) });
      expect(res.status).toBe(401);
      expect(await codeOf(res)).toBe('UNAUTHORIZED');
    });

    it('400: refuses a missing, zero, negative, fractional or too large amount, malformed ids and extra fields', async () => {
      const pair = isMock ? undefined : await customerWithExternalAccount('000', { funding: 10_000 });
      const source = { accountId: pair?.internal.id ?? examples.internalAccountId };
      const destination = { accountId: pair?.external.id ?? exampleExternal };
      const bodies: unknown[] = [
        { source, destination },
        { source, destination, amount: 0 },
        { source, destination, amount: -100 },
        { source, destination, amount: 1.5 },
        { source, destination, amount: 100_000_000_001 },
        { source, amount: 100 },
        { destination, amount: 100 },
        { source: { accountId: 'acct-1' }, destination, amount: 100 },
        { source, destination: { accountId: pair?.internal.id ?? examples.internalAccountId }, amount: 100 },
        { source, destination: { ...destination, paymentRail: 'CARRIER_PIGEON' }, amount: 100 },
        { source, destination, amount: 100, currency: 'USD' },
        { source, destination, amount: 100, remittanceInformation: 'x'.repeat(81) },
        { source, destination, amount: 100, purposeOfPayment: 'FUN' },
      ];
      for (const body of bodies) await expectInvalidRequest(await raw('POST', '/transfer-out', jsonBody(body)));
      if (pair !== undefined) await expectNothingRecorded(pair.internal.id, pair.external.id, 10_000);
    });
  });

  describe('Idempotency-Key', () => {
    itServer('concurrent requests with one key: one transfer; the others are its replay or 409 IDEMPOTENCY_KEY_IN_USE', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 10_000 });
      const key = idempotencyKey();
      const body = { source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_500 };
      const results = await Promise.all(Array.from({ length: 8 }, () => transferOut(body, { key })));
      const ok = results.filter((r) => r.response.status === 201);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of results.filter((x) => x.response.status !== 201)) {
        expect(r.response.status).toBe(409);
        expect(r.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
      }
      expect(new Set(ok.map((r) => JSON.stringify(r.data))).size).toBe(1);
      expect(await balanceOf(internal.id)).toBe(8_500);
      expect((await transfersWith(external.id)).totalCount).toBe(1);
    });
  });

  itServer('concurrent transfer-outs never overdraw: as many as the balance covers are sent, the others are 400 INSUFFICIENT_FUNDS', async () => {
    const { internal, external } = await customerWithExternalAccount('000', { funding: 5_000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_000 })));
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    for (const r of results.filter((x) => x.response.status === 400)) expect(r.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await balanceOf(internal.id)).toBe(0);
    const page = await transfersWith(external.id);
    expect(page.totalCount).toBe(5);
    expect(page.data.every((t) => t.status === 'COMPLETED')).toBe(true);
  });

  itServer('201: the platform sends from its own balance to its own account; the transaction has no customer', async () => {
    const platformUsd = await platformInternalAccount('USD');
    const platformExternal = await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
    await fund(platformUsd.id, 7_000);
    const before = await balanceOf(platformUsd.id);
    const tx = created(await transferOut({ source: { accountId: platformUsd.id }, destination: { accountId: platformExternal.id, paymentRail: 'WIRE' }, amount: 7_000 }));
    expect(tx).toMatchObject({
      type: 'OUTGOING',
      direction: 'DEBIT',
      status: 'COMPLETED',
      source: { sourceType: 'ACCOUNT', accountId: platformUsd.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: platformExternal.id, currency: 'USD' },
      sentAmount: { amount: 7_000 },
      paymentRail: 'WIRE',
    });
    expect(tx).not.toHaveProperty('customerId');
    expect(tx).not.toHaveProperty('platformCustomerId');
    expect(await balanceOf(platformUsd.id)).toBe(before - 7_000);
    expect((await transfersWith(platformExternal.id)).data).toEqual([tx]);
  });
});

describe('createTransferIn', () => {
  it('201: pulls from the customer\'s own bank account: COMPLETED at once, credited to the minor unit', async () => {
    const pair = isMock ? undefined : await customerWithExternalAccount('000', { funding: 1_000 });
    const result = await transferIn({
      source: { accountId: pair?.external.id ?? exampleExternal },
      destination: { accountId: pair?.internal.id ?? examples.internalAccountId },
      amount: 50_000,
      description: 'Top-up from checking',
    });
    const tx = created(result);
    expect(tx).toMatchObject({ type: 'INCOMING', direction: 'CREDIT', status: 'COMPLETED' });
    if (pair === undefined) return;
    const { customer, internal, external } = pair;
    expect(tx).toMatchObject({
      source: { sourceType: 'ACCOUNT', accountId: external.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: internal.id, currency: 'USD' },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      receivedAmount: { amount: 50_000, currency: internal.balance.currency },
      description: 'Top-up from checking',
    });
    expect(tx.id).toMatch(/^Transaction:[0-9a-f-]{36}$/);
    expect(tx.reconciliationInstructions?.reference).toEqual(expect.any(String));
    expect(tx).not.toHaveProperty('failureReason');
    expect(Date.parse(tx.settledAt ?? '')).toBeGreaterThanOrEqual(Date.parse(tx.createdAt));
    expect(await balanceOf(internal.id)).toBe(51_000);
    expect(await getTransaction(tx.id)).toEqual(tx);
    const page = await transfersWith(external.id);
    expect(page.totalCount).toBe(1);
    expect(page.data).toEqual([tx]);
  });

  itServer('201: into an empty account; without a description the transaction has none', async () => {
    const { internal, external } = await customerWithExternalAccount('000');
    const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 1 }));
    expect(tx.status).toBe('COMPLETED');
    expect(tx).not.toHaveProperty('description');
    expect(await balanceOf(internal.id)).toBe(1);
  });

  itServer('201: the largest amount, 100000000000, is pulled in full; sending it back leaves 0', async () => {
    const { internal, external } = await customerWithExternalAccount('000');
    const pulled = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 100_000_000_000 }));
    expect(pulled.receivedAmount).toMatchObject({ amount: 100_000_000_000 });
    expect(await balanceOf(internal.id)).toBe(100_000_000_000);
    created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 100_000_000_000 }));
    expect(await balanceOf(internal.id)).toBe(0);
  });

  describe('sandbox outcome by the last 3 digits of the account number', () => {
    itServer.each([
      { currency: 'EUR', suffix: '000', status: 'COMPLETED' },
      { currency: 'EUR', suffix: '002', status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' },
      { currency: 'MXN', suffix: '003', status: 'FAILED', failureReason: 'ACCOUNT_CLOSED' },
      { currency: 'MXN', suffix: '005', status: 'PENDING' },
      { currency: 'BTC', suffix: '000', status: 'COMPLETED' },
      { currency: 'BTC', suffix: '004', status: 'PROCESSING' },
    ] as { currency: TransferCurrency; suffix: string; status: Transaction['status']; failureReason?: string }[])('$currency account ending in $suffix: $status', async ({ currency, suffix, status, failureReason }) => {
      const { internal, external } = await customerWithExternalAccount(suffix, { currency, funding: 10_000 });
      const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 2_500 }));
      expect(tx).toMatchObject({ status, source: { accountId: external.id, currency }, destination: { accountId: internal.id, currency } });
      expect(tx.failureReason).toBe(failureReason);
      if (status !== 'FAILED') expect(tx.receivedAmount).toEqual({ amount: 2_500, currency: internal.balance.currency });
      expect(await balanceOf(internal.id)).toBe(status === 'COMPLETED' ? 12_500 : 10_000);
    });
  });

  describe('refusals', () => {
    itServer('404: unknown internal or external account', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 3_000 });
      const noInternal = await transferIn({ source: { accountId: external.id }, destination: { accountId: missingInternal }, amount: 1_000 });
      expect(noInternal.response.status).toBe(404);
      expect(noInternal.error).toMatchObject({ code: 'INTERNAL_ACCOUNT_NOT_FOUND' });
      const noExternal = await transferIn({ source: { accountId: missingExternal }, destination: { accountId: internal.id }, amount: 1_000 });
      expect(noExternal.response.status).toBe(404);
      expect(noExternal.error).toMatchObject({ code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
      await expectNothingRecorded(internal.id, external.id, 3_000);
    });

    itServer('400 ACCOUNT_NOT_ACTIVE: a deleted (INACTIVE) external account', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 3_000 });
      expect((await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: external.id } } })).response.status).toBe(204);
      const { response, error } = await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 1_000 });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVE' });
      await expectNothingRecorded(internal.id, external.id, 3_000);
    });

    itServer('400 ACCOUNT_OWNER_MISMATCH: customer B\'s account into customer A\'s balance, a customer\'s into the platform\'s and the platform\'s into a customer\'s', async () => {
      const a = await customerWithExternalAccount('000', { funding: 3_000 });
      const b = await customerWithExternalAccount('000', { funding: 3_000 });
      const platformUsd = await platformInternalAccount('USD');
      const platformExternal = await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
      const platformBefore = await balanceOf(platformUsd.id);
      for (const [source, destination] of [
        [b.external.id, a.internal.id],
        [a.external.id, platformUsd.id],
        [platformExternal.id, a.internal.id],
      ] as const) {
        const { response, error } = await transferIn({ source: { accountId: source }, destination: { accountId: destination }, amount: 1_000 });
        expect(response.status, `${source} → ${destination}`).toBe(400);
        expect(error).toMatchObject({ code: 'ACCOUNT_OWNER_MISMATCH' });
      }
      await expectNothingRecorded(a.internal.id, a.external.id, 3_000);
      await expectNothingRecorded(b.internal.id, b.external.id, 3_000);
      expect((await transfersWith(platformExternal.id)).totalCount).toBe(0);
      expect(await balanceOf(platformUsd.id)).toBe(platformBefore);
    });

    it('401: requires credentials', async () => {
      const body = { source: { accountId: exampleExternal }, destination: { accountId: examples.internalAccountId }, amount: 100 };
      const res = await raw('POST', '/transfer-in', { auth: false, ...jsonBody(body) });
      expect(res.status).toBe(401);
      expect(await codeOf(res)).toBe('UNAUTHORIZED');
    });

    it('400: refuses a bad amount, a long description, swapped or malformed ids, a rail and extra fields', async () => {
      const pair = isMock ? undefined : await customerWithExternalAccount('000');
      const source = { accountId: pair?.external.id ?? exampleExternal };
      const destination = { accountId: pair?.internal.id ?? examples.internalAccountId };
      const bodies: unknown[] = [
        { source, destination },
        { source, destination, amount: 0 },
        { source, destination, amount: -1 },
        { source, destination, amount: 2.25 },
        { source, destination, amount: 100_000_000_001 },
        { source, destination, amount: 100, description: 'x'.repeat(141) },
        { source: destination, destination: source, amount: 100 },
        { source: { accountId: 'bank-1' }, destination, amount: 100 },
        { source: { ...source, paymentRail: 'ACH' }, destination, amount: 100 },
        { source, destination, amount: 100, currency: 'USD' },
      ];
      for (const body of bodies) await expectInvalidRequest(await raw('POST', '/transfer-in', jsonBody(body)));
      if (pair !== undefined) await expectNothingRecorded(pair.internal.id, pair.external.id, 0);
    });
  });

  itServer('201: the platform pulls from its own account into its own balance; the transaction has no customer', async () => {
    const platformUsd = await platformInternalAccount('USD');
    const platformExternal = await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
    const before = await balanceOf(platformUsd.id);
    const tx = created(await transferIn({ source: { accountId: platformExternal.id }, destination: { accountId: platformUsd.id }, amount: 3_333 }));
    expect(tx).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      source: { sourceType: 'ACCOUNT', accountId: platformExternal.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: platformUsd.id, currency: 'USD' },
      receivedAmount: { amount: 3_333 },
    });
    expect(tx).not.toHaveProperty('customerId');
    expect(tx).not.toHaveProperty('platformCustomerId');
    expect(await balanceOf(platformUsd.id)).toBe(before + 3_333);
    expect((await transfersWith(platformExternal.id)).data).toEqual([tx]);
  });
});
