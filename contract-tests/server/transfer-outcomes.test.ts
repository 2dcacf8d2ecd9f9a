// The delayed sandbox outcomes of transfers, on a server of this file's own whose platform's sandbox
// clock the tests move forward (moving the shared platform's would disturb the other files' tests): a transfer
// ending in 005 stays PENDING about 30 seconds and then fails, one ending in 004 fails a few
// seconds after PROCESSING; a failed transfer-out is credited back exactly once, a transfer-in
// never credits; and a cancelled transfer keeps its cancellation when its scheduled outcome
// comes due, with the funds back exactly once.
//
// Nothing is waited or polled for: the advance answers once what came due has happened, so each
// outcome is read at once; a sentinel transfer whose outcome is due at the same time or later has
// changed when the earlier one must not have yet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentsClient } from '../../client/index.ts';
import { target } from '../support/api.ts';
import {
  balanceThrough,
  cancelTransaction,
  checkedClientOf,
  created,
  customerWithExternalAccount,
  getTransaction,
  listTransactions,
  type Transaction,
  transferIn,
  transferOut,
} from '../support/factories.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { advancePlatformClock, transactionNow } from '../support/platform-clock.ts';
import { newCredentials } from '../support/server-process.ts';

const token = newCredentials();

describe.skipIf(target !== 'pglite')('delayed transfer outcomes on the platform sandbox clock', () => {
  let server: TestServer;
  let via: PaymentsClient;
  beforeAll(async () => {
    server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    via = checkedClientOf(server.baseUrl, token);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const balance = (accountId: string) => balanceThrough(accountId, via);
  const get = (id: string) => getTransaction(id, via);
  const failed = (id: string) => transactionNow(via, id, 'FAILED');
  const advance = (ms: number) => advancePlatformClock(via, ms);

  /** A funded customer with an external account ending in `suffix`, and a transfer-out to it. */
  async function sent(suffix: string, amount: number, funding: number, paymentRail?: 'ACH' | 'WIRE' | 'RTP') {
    const pair = await customerWithExternalAccount(suffix, { funding, via });
    const destination = { accountId: pair.external.id, ...(paymentRail === undefined ? {} : { paymentRail }) };
    const tx = created(await transferOut({ source: { accountId: pair.internal.id }, destination, amount }, { via }));
    return { ...pair, tx };
  }

  it('transfer-out 005: PENDING and debited for about 30 s, then FAILED (BANK_REJECTED) and credited back exactly once', async () => {
    const { internal, tx } = await sent('005', 4_000, 10_000);
    expect(tx).toMatchObject({ status: 'PENDING', paymentRail: 'ACH' });
    expect(await balance(internal.id)).toBe(6_000);

    // 15 s on, and a sentinel due 3 s later has failed: still PENDING, unchanged.
    await advance(15_000);
    const sentinel = await sent('004', 100, 1_000);
    await advance(3_000);
    await failed(sentinel.tx.id);
    expect(await get(tx.id)).toEqual(tx);
    expect(await balance(internal.id)).toBe(6_000);

    // Past 30 s: FAILED, the amount back.
    await advance(16_000);
    const done = await failed(tx.id);
    expect(done).toMatchObject({ id: tx.id, type: 'OUTGOING', status: 'FAILED', failureReason: 'BANK_REJECTED', sentAmount: tx.sentAmount, createdAt: tx.createdAt });
    expect(done).not.toHaveProperty('settledAt');
    expect(Date.parse(done.updatedAt)).toBeGreaterThan(Date.parse(tx.updatedAt));
    expect(await balance(internal.id)).toBe(10_000);
    expect((await listTransactions({ sourceAccountId: internal.id }, via)).data).toEqual([done]);

    // Much later: nothing more happens to it.
    await advance(600_000);
    const later = await sent('004', 100, 1_000);
    await advance(3_000);
    await failed(later.tx.id);
    expect(await get(tx.id)).toEqual(done);
    expect(await balance(internal.id)).toBe(10_000);
  }, 90_000);

  it('transfer-out 004: PROCESSING and debited, FAILED (BANK_REJECTED) a few seconds later, credited back exactly once', async () => {
    const { internal, tx } = await sent('004', 2_500, 5_000);
    expect(tx).toMatchObject({ status: 'PROCESSING', paymentRail: 'ACH' });
    expect(await balance(internal.id)).toBe(2_500);
    await advance(3_000);
    const done = await failed(tx.id);
    expect(done).toMatchObject({ failureReason: 'BANK_REJECTED' });
    expect(done).not.toHaveProperty('settledAt');
    expect(await balance(internal.id)).toBe(5_000);
    await advance(60_000);
    const sentinel = await sent('004', 100, 1_000);
    await advance(3_000);
    await failed(sentinel.tx.id);
    expect(await get(tx.id)).toEqual(done);
    expect(await balance(internal.id)).toBe(5_000);
  }, 60_000);

  it('transfer-in 005: PENDING about 30 s, then FAILED (BANK_REJECTED); nothing is ever credited', async () => {
    const { internal, external } = await customerWithExternalAccount('005', { funding: 1_000, via });
    const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 9_000 }, { via }));
    expect(tx).toMatchObject({ type: 'INCOMING', status: 'PENDING' });
    await advance(15_000);
    const sentinel = await sent('004', 100, 1_000);
    await advance(3_000);
    await failed(sentinel.tx.id);
    expect(await get(tx.id)).toEqual(tx);
    expect(await balance(internal.id)).toBe(1_000);
    await advance(16_000);
    const done = await failed(tx.id);
    // Nothing reached the destination: receivedAmount is 0 once it failed.
    expect(done).toMatchObject({ type: 'INCOMING', failureReason: 'BANK_REJECTED', receivedAmount: { amount: 0, currency: internal.balance.currency } });
    expect(done).not.toHaveProperty('settledAt');
    expect(await balance(internal.id)).toBe(1_000);
  }, 60_000);

  it('transfer-in 004: PROCESSING, FAILED (BANK_REJECTED) a few seconds later; nothing is ever credited', async () => {
    const { internal, external } = await customerWithExternalAccount('004', { via });
    const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 9_000 }, { via }));
    expect(tx).toMatchObject({ type: 'INCOMING', status: 'PROCESSING' });
    expect(await balance(internal.id)).toBe(0);
    await advance(3_000);
    expect(await failed(tx.id)).toMatchObject({ failureReason: 'BANK_REJECTED', receivedAmount: { amount: 0 } });
    expect(await balance(internal.id)).toBe(0);
  }, 60_000);

  it('a cancelled PENDING transfer (005, ACH) stays CANCELLED when its failure comes due; the funds came back once', async () => {
    const { internal, tx } = await sent('005', 3_000, 10_000);
    const sentinel = await sent('005', 3_000, 10_000);
    const cancel = await cancelTransaction(tx.id, { reason: 'stop it' }, { via });
    expect(cancel.response.status).toBe(200);
    const cancelled = cancel.data as Transaction;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', failureReason: 'CANCELLED' });
    expect(await balance(internal.id)).toBe(10_000);

    // The uncancelled twin, created after it, fails on schedule.
    await advance(31_000);
    expect(await failed(sentinel.tx.id)).toMatchObject({ failureReason: 'BANK_REJECTED' });
    expect(await balance(sentinel.internal.id)).toBe(10_000);
    expect(await get(tx.id)).toEqual(cancelled);
    expect(await balance(internal.id)).toBe(10_000);
  }, 60_000);

  it.each(['ACH', 'WIRE'] as const)('a cancelled PROCESSING transfer (004, %s) stays CANCELLED when its failure comes due; the funds came back once', async (paymentRail) => {
    const { internal, tx } = await sent('004', 3_000, 10_000, paymentRail);
    expect(tx).toMatchObject({ status: 'PROCESSING', paymentRail });
    expect(await balance(internal.id)).toBe(7_000);
    const cancel = await cancelTransaction(tx.id, undefined, { via });
    expect(cancel.response.status).toBe(200);
    const cancelled = cancel.data as Transaction;
    expect(cancelled).toMatchObject({ id: tx.id, status: 'CANCELLED', failureReason: 'CANCELLED', paymentRail });
    expect(await balance(internal.id)).toBe(10_000);

    const sentinel = await sent('004', 3_000, 10_000, paymentRail);
    await advance(3_000);
    await failed(sentinel.tx.id);
    expect(await get(tx.id)).toEqual(cancelled);
    expect(await balance(internal.id)).toBe(10_000);
  }, 60_000);

  it('a transfer-out that already FAILED cannot be cancelled: 409, credited back once', async () => {
    const { internal, tx } = await sent('004', 3_000, 10_000);
    await advance(3_000);
    const done = await failed(tx.id);
    const { response, error } = await cancelTransaction(tx.id, undefined, { via });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE' });
    expect(await get(tx.id)).toEqual(done);
    expect(await balance(internal.id)).toBe(10_000);
  }, 60_000);

  it('every balance of this server equals its ledger entries', async () => {
    const report = (await (await fetch(`${server.origin}/__test/ledger/check`)).json()) as Record<string, unknown>;
    expect(report, JSON.stringify(report)).toMatchObject({ consistent: true });
  });
});
