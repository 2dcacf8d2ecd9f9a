// Transactions: listTransactions, getTransaction, cancelTransaction. The list is asserted through
// filters naming this file's own customers and accounts (other files add transactions to the
// shared server at the same time); cancellation is read back through the transaction, the list
// and the balance. What a cancelled transfer's scheduled outcome does later needs the clock moved:
// ../server/transfer-outcomes.test.ts. Funding as a transaction, the cancel of a PENDING transfer-out
// once, a COMPLETED one refused, the replay of a cancel, 403s and 404s are the conformance kit's
// transactions.*, idempotency.*, auth.* and errors.* checks (conformance-kit.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import type { PaymentsClient } from '../../client/index.ts';
import { api, controlsOrigin, describeServer, expectInvalidRequest, isMock, itServer, raw, serverBaseUrl } from '../support/api.ts';
import { advancePlatformClock, newPlatform, transactionNow } from '../support/platform-clock.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import {balanceOf, balanceThrough, cancelTransaction, created, createExternalAccount, customerWithExternalAccount, fund, getTransaction, listTransactions, newCustomerAccount, tokenWith, type Transaction, type TransactionListQuery, transferIn, transferOut} from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';

type Schemas = components['schemas'];

/** The spec's example transaction (what the mock's examples name). */
const exampleTransaction = 'Transaction:019542f5-b3e7-1d02-0000-000000000028';

const ids = (page: { data: Transaction[] }) => page.data.map((t) => t.id);

/** Every transaction matching the filters, following nextCursor page by page. */
async function allPages(query: TransactionListQuery): Promise<Transaction[]> {
  const items: Transaction[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await listTransactions({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    items.push(...page.data);
    if (!page.hasMore) return items;
    cursor = page.nextCursor;
  }
  throw new Error('more than 50 pages');
}

/** A customer's funded USD account, an external account of theirs ending in `suffix`, and a transfer-out to it of `amount`. */
async function sentTo(suffix: string, options: { funding?: number; amount?: number; paymentRail?: Schemas['PaymentRail']; via?: PaymentsClient } = {}) {
  const funding = options.funding ?? 10_000;
  const via = options.via ?? api;
  const pair = await customerWithExternalAccount(suffix, { funding, via });
  const destination = { accountId: pair.external.id, ...(options.paymentRail === undefined ? {} : { paymentRail: options.paymentRail }) };
  const tx = created(await transferOut({ source: { accountId: pair.internal.id }, destination, amount: options.amount ?? 2_500 }, { via }));
  return { ...pair, funding, tx };
}

describe('listTransactions', () => {
  it('200: a page of transactions in the list envelope', async () => {
    const account = isMock ? undefined : await newCustomerAccount('USD');
    if (account !== undefined) await fund(account.id, 100);
    const { data, response } = await api.GET('/transactions', { params: { query: account === undefined ? {} : { accountId: account.id } } });
    expect(response.status).toBe(200);
    expect(Array.isArray(data?.data)).toBe(true);
    expect(typeof data?.hasMore).toBe('boolean');
    expect(typeof data?.totalCount).toBe('number');
    if (account === undefined) return;
    expect(data).toMatchObject({ hasMore: false, totalCount: 1 });
    expect(data).not.toHaveProperty('nextCursor');
  });

  describeServer('filters, order and pages', () => {
    // Customer A: funding f, out1 to ext000 (COMPLETED), in2 from ext000 (COMPLETED), out3 to
    // ext002 (FAILED). Customer B: funding and one transfer-out, which no filter on A may return.
    let a: Awaited<ReturnType<typeof customerWithExternalAccount>>;
    let a002: Schemas['ExternalAccount'];
    let b: Awaited<ReturnType<typeof customerWithExternalAccount>>;
    let f: Transaction;
    let out1: Transaction;
    let in2: Transaction;
    let out3: Transaction;
    let bOut: Transaction;
    /** A's transactions, oldest first. */
    let aAll: Transaction[];

    beforeAll(async () => {
      a = await customerWithExternalAccount('000', { funding: 100_000 });
      a002 = await createExternalAccount({ customerId: a.customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd('002') });
      b = await customerWithExternalAccount('000', { funding: 50_000 });
      const funding = (await listTransactions({ accountId: a.internal.id })).data[0];
      if (funding === undefined) throw new Error('the funding is not listed');
      f = funding;
      out1 = created(await transferOut({ source: { accountId: a.internal.id }, destination: { accountId: a.external.id }, amount: 1_000 }));
      in2 = created(await transferIn({ source: { accountId: a.external.id }, destination: { accountId: a.internal.id }, amount: 2_000, description: 'filters' }));
      out3 = created(await transferOut({ source: { accountId: a.internal.id }, destination: { accountId: a002.id }, amount: 3_000 }));
      bOut = created(await transferOut({ source: { accountId: b.internal.id }, destination: { accountId: b.external.id }, amount: 500 }));
      aAll = [f, out1, in2, out3];
    });

    const expectIds = async (query: TransactionListQuery, expected: Transaction[]) => {
      const page = await listTransactions({ limit: 100, ...query });
      expect(ids(page), JSON.stringify(query)).toEqual(expected.map((t) => t.id));
      expect(page.totalCount, JSON.stringify(query)).toBe(expected.length);
      expect(page.hasMore).toBe(false);
    };
    const newestFirst = (...txs: Transaction[]) => [...txs].sort((x, y) => Date.parse(y.createdAt) - Date.parse(x.createdAt));

    it('the balance and the statuses are what the transfers say', async () => {
      expect([out1.status, in2.status, out3.status, bOut.status]).toEqual(['COMPLETED', 'COMPLETED', 'FAILED', 'COMPLETED']);
      expect(await balanceOf(a.internal.id)).toBe(100_000 - 1_000 + 2_000);
      // Created one after the other: distinct times, in order.
      const times = aAll.map((t) => Date.parse(t.createdAt));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(new Set(times).size).toBe(4);
    });

    it('customerId and platformCustomerId: the customer\'s transactions, newest first; each item is the transaction as GET returns it', async () => {
      await expectIds({ customerId: a.customer.id }, newestFirst(...aAll));
      await expectIds({ platformCustomerId: a.customer.platformCustomerId ?? '' }, newestFirst(...aAll));
      await expectIds({ customerId: b.customer.id }, newestFirst(bOut, ...(await listTransactions({ destinationAccountId: b.internal.id })).data));
      const page = await listTransactions({ customerId: a.customer.id });
      for (const tx of page.data) expect(await getTransaction(tx.id)).toEqual(tx);
      expect(page.data.find((t) => t.id === out1.id)).toEqual(out1);
    });

    it('accountId: transactions with the account on either side', async () => {
      await expectIds({ accountId: a.internal.id }, newestFirst(...aAll));
      await expectIds({ accountId: a.external.id }, newestFirst(out1, in2));
      await expectIds({ accountId: a002.id }, [out3]);
      await expectIds({ accountId: b.external.id }, [bOut]);
    });

    it('sourceAccountId and destinationAccountId: one side only', async () => {
      await expectIds({ sourceAccountId: a.internal.id }, newestFirst(out1, out3));
      await expectIds({ destinationAccountId: a.internal.id }, newestFirst(f, in2));
      await expectIds({ sourceAccountId: a.external.id }, [in2]);
      await expectIds({ destinationAccountId: a.external.id }, [out1]);
      await expectIds({ sourceAccountId: a.internal.id, destinationAccountId: a002.id }, [out3]);
      await expectIds({ sourceAccountId: a.external.id, destinationAccountId: a002.id }, []);
    });

    it('status and type, combined with the customer (AND)', async () => {
      await expectIds({ customerId: a.customer.id, status: 'FAILED' }, [out3]);
      await expectIds({ customerId: a.customer.id, status: 'COMPLETED' }, newestFirst(f, out1, in2));
      await expectIds({ customerId: a.customer.id, status: 'PENDING' }, []);
      await expectIds({ customerId: a.customer.id, type: 'OUTGOING' }, newestFirst(out1, out3));
      await expectIds({ customerId: a.customer.id, type: 'INCOMING' }, newestFirst(f, in2));
      await expectIds({ customerId: a.customer.id, type: 'OUTGOING', status: 'COMPLETED' }, [out1]);
      await expectIds({ accountId: a.internal.id, customerId: b.customer.id }, []);
    });

    it('reference: exactly the transaction with that reconciliation reference', async () => {
      const references = aAll.map((t) => t.reconciliationInstructions?.reference);
      for (const reference of references) expect(reference).toEqual(expect.any(String));
      expect(new Set(references).size).toBe(4);
      for (const tx of [out1, in2, out3, bOut]) await expectIds({ reference: tx.reconciliationInstructions?.reference ?? '' }, [tx]);
      await expectIds({ reference: out1.reconciliationInstructions?.reference ?? '', customerId: b.customer.id }, []);
      await expectIds({ reference: `no-such-${out1.id}` }, []);
    });

    it('startDate and endDate bound createdAt, inclusive', async () => {
      const at = (tx: Transaction) => tx.createdAt;
      const shift = (tx: Transaction, ms: number) => new Date(Date.parse(tx.createdAt) + ms).toISOString();
      // A transaction's own createdAt as both bounds includes it.
      for (const tx of aAll) await expectIds({ customerId: a.customer.id, startDate: at(tx), endDate: at(tx) }, [tx]);
      await expectIds({ customerId: a.customer.id, startDate: at(in2) }, newestFirst(in2, out3));
      await expectIds({ customerId: a.customer.id, endDate: at(out1) }, newestFirst(f, out1));
      await expectIds({ customerId: a.customer.id, startDate: at(out1), endDate: at(in2) }, newestFirst(out1, in2));
      await expectIds({ customerId: a.customer.id, startDate: shift(out3, 1) }, []);
      await expectIds({ customerId: a.customer.id, endDate: shift(f, -1) }, []);
    });

    it('sortOrder: DESC (newest first) by default, ASC oldest first', async () => {
      await expectIds({ customerId: a.customer.id, sortOrder: 'DESC' }, newestFirst(...aAll));
      await expectIds({ customerId: a.customer.id, sortOrder: 'ASC' }, aAll);
      expect(ids(await listTransactions({ customerId: a.customer.id }))).toEqual(newestFirst(...aAll).map((t) => t.id));
    });

    it('limit and cursor: pages of the same filters, with totalCount, in order, each item once', async () => {
      for (const sortOrder of ['DESC', 'ASC'] as const) {
        const expected = sortOrder === 'ASC' ? aAll : newestFirst(...aAll);
        const first = await listTransactions({ customerId: a.customer.id, sortOrder, limit: 3 });
        expect(first).toMatchObject({ hasMore: true, totalCount: 4 });
        expect(ids(first)).toEqual(expected.slice(0, 3).map((t) => t.id));
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await listTransactions({ customerId: a.customer.id, sortOrder, limit: 3, cursor: first.nextCursor ?? '' });
        expect(second).toMatchObject({ hasMore: false, totalCount: 4 });
        expect(second).not.toHaveProperty('nextCursor');
        expect(ids(second)).toEqual(expected.slice(3).map((t) => t.id));
      }
      const oneByOne = await allPages({ customerId: a.customer.id, limit: 1 });
      expect(oneByOne.map((t) => t.id)).toEqual(newestFirst(...aAll).map((t) => t.id));
    });

    it('400 INVALID_CURSOR: a cursor reused with other filters', async () => {
      const first = await listTransactions({ customerId: a.customer.id, limit: 1 });
      const cursor = first.nextCursor ?? '';
      expect(cursor).not.toBe('');
      for (const query of [{ customerId: b.customer.id }, { customerId: a.customer.id, status: 'COMPLETED' as const }, { customerId: a.customer.id, type: 'OUTGOING' as const }, { accountId: a.internal.id }, {}]) {
        const { response, error } = await api.GET('/transactions', { params: { query: { ...query, limit: 1, cursor } } });
        expect(response.status, JSON.stringify(query)).toBe(400);
        expect(error).toMatchObject({ code: 'INVALID_CURSOR' });
      }
      const garbage = await api.GET('/transactions', { params: { query: { customerId: a.customer.id, cursor: 'not-a-cursor' } } });
      expect(garbage.response.status).toBe(400);
      expect(garbage.error).toMatchObject({ code: 'INVALID_CURSOR' });
    });

    it('a customer or account with no transactions: an empty page', async () => {
      const other = await newCustomerAccount('USD');
      await expectIds({ customerId: other.customerId ?? '' }, []);
      await expectIds({ accountId: other.id }, []);
      await expectIds({ platformCustomerId: `nobody-${other.id}` }, []);
    });

    it('200: a token with only VIEW lists and reads transactions', async () => {
      const viewer = await tokenWith(['VIEW']);
      const listed = await listTransactions({ customerId: a.customer.id }, viewer);
      expect(ids(listed)).toEqual(newestFirst(...aAll).map((t) => t.id));
      expect(await getTransaction(out1.id, viewer)).toEqual(out1);
    });
  });

  it('400: malformed filters', async () => {
    for (const query of [
      'accountId=acct-1',
      'sourceAccountId=Customer:019542f5-b3e7-1d02-0000-000000000001',
      'destinationAccountId=x',
      'customerId=cust-1',
      'status=DONE',
      'type=SIDEWAYS',
      'sortOrder=UP',
      'startDate=yesterday',
      'endDate=2025-13-45',
      'limit=0',
      'limit=101',
      // The mock takes an empty value for an absent one.
      ...(isMock ? [] : ['platformCustomerId=']),
    ]) {
      await expectInvalidRequest(await raw('GET', `/transactions?${query}`));
    }
  });

  it('401: requires credentials', async () => {
    const res = await raw('GET', '/transactions', { auth: false });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });
});

describe('getTransaction', () => {
  itServer('200: the transaction as it is now, incoming or outgoing', async () => {
    const { internal, external, tx } = await sentTo('000');
    expect(await getTransaction(tx.id)).toEqual(tx);
    const pulled = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 700 }));
    expect(await getTransaction(pulled.id)).toEqual(pulled);
    expect(pulled.type).toBe('INCOMING');
  });

  it('400: a malformed id', async () => {
    await expectInvalidRequest(await raw('GET', '/transactions/tx-1'));
  });

  it('401: requires credentials', async () => {
    const res = await raw('GET', `/transactions/${exampleTransaction}`, { auth: false });
    expect(res.status).toBe(401);
  });
});

describe('cancelTransaction', () => {
  it('200: a PENDING ACH transfer-out is CANCELLED with failureReason CANCELLED, and the funds come back', async () => {
    const sent = isMock ? undefined : await sentTo('005', { funding: 10_000, amount: 4_000 });
    if (sent !== undefined) {
      expect(sent.tx).toMatchObject({ status: 'PENDING', paymentRail: 'ACH' });
      expect(await balanceOf(sent.internal.id)).toBe(6_000);
    }
    const result = await cancelTransaction(sent?.tx.id ?? exampleTransaction, { reason: 'Customer asked to stop the payment.' });
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({ type: 'OUTGOING', status: 'CANCELLED', failureReason: 'CANCELLED' });
    if (sent === undefined) return;
    const cancelled = result.data as Transaction;
    const { id, type, direction, source, destination, customerId, platformCustomerId, sentAmount, paymentRail, reconciliationInstructions, createdAt } = sent.tx;
    expect(cancelled).toMatchObject({ id, type, direction, source, destination, customerId, platformCustomerId, sentAmount, paymentRail, reconciliationInstructions, createdAt });
    expect(cancelled).not.toHaveProperty('settledAt');
    expect(Date.parse(cancelled.updatedAt)).toBeGreaterThanOrEqual(Date.parse(sent.tx.updatedAt));
    expect(await balanceOf(sent.internal.id)).toBe(10_000);
    expect(await getTransaction(id)).toEqual(cancelled);
    expect(ids(await listTransactions({ accountId: sent.external.id, status: 'CANCELLED' }))).toEqual([id]);
    expect((await listTransactions({ accountId: sent.external.id, status: 'PENDING' })).totalCount).toBe(0);
  });

  itServer('200: the body is optional', async () => {
    const { internal, funding, tx } = await sentTo('005');
    const { data, response } = await cancelTransaction(tx.id);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: tx.id, status: 'CANCELLED', failureReason: 'CANCELLED' });
    expect(await balanceOf(internal.id)).toBe(funding);
  });

  itServer.each(['RTP', 'FEDNOW'] as const)('200: a PENDING transfer on an instant rail (%s) has not reached its rail and can be cancelled', async (paymentRail) => {
    const { internal, funding, tx } = await sentTo('005', { paymentRail });
    expect(tx).toMatchObject({ status: 'PENDING', paymentRail });
    const { data, response } = await cancelTransaction(tx.id);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ status: 'CANCELLED', failureReason: 'CANCELLED', paymentRail });
    expect(await balanceOf(internal.id)).toBe(funding);
  });

  itServer.each(['RTP', 'FEDNOW'] as const)('409 TRANSACTION_NOT_CANCELLABLE: a PROCESSING transfer on an instant rail (%s); its own outcome still credits it back once', async (paymentRail) => {
    // On a platform of its own, whose clock brings the outcome (the suite's platform's must not move).
    const { via } = await newPlatform(serverBaseUrl, controlsOrigin(serverBaseUrl));
    const { internal, funding, tx } = await sentTo('004', { paymentRail, amount: 3_000, via });
    expect(tx).toMatchObject({ status: 'PROCESSING', paymentRail });
    const { response, error } = await cancelTransaction(tx.id, { reason: 'too late' }, { via });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE' });
    expect((await getTransaction(tx.id, via)).status).not.toBe('CANCELLED');
    // The sandbox's own outcome follows a few seconds later: FAILED (BANK_REJECTED), credited back once.
    await advancePlatformClock(via, 3_000);
    expect(await transactionNow(via, tx.id, 'FAILED')).toMatchObject({ failureReason: 'BANK_REJECTED' });
    expect(await balanceThrough(internal.id, via)).toBe(funding);
  });

  itServer.each(['002', '003'])('409 TRANSACTION_NOT_CANCELLABLE: a FAILED transfer-out (suffix %s)', async (suffix) => {
    const { internal, funding, tx } = await sentTo(suffix);
    expect(tx.status).toBe('FAILED');
    const { response, error } = await cancelTransaction(tx.id);
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE' });
    expect(await getTransaction(tx.id)).toEqual(tx);
    expect(await balanceOf(internal.id)).toBe(funding);
  });

  itServer('409 TRANSACTION_NOT_CANCELLABLE: incoming transactions, even PENDING ones, and sandbox funding', async () => {
    const { internal, external } = await customerWithExternalAccount('005', { funding: 1_000 });
    const pending = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 5_000 }));
    expect(pending.status).toBe('PENDING');
    const done = await customerWithExternalAccount('000');
    const completed = created(await transferIn({ source: { accountId: done.external.id }, destination: { accountId: done.internal.id }, amount: 5_000 }));
    const funding = (await listTransactions({ accountId: internal.id, type: 'INCOMING', status: 'COMPLETED' })).data[0];
    if (funding === undefined) throw new Error('the funding is not listed');
    for (const tx of [pending, completed, funding]) {
      const { response, error } = await cancelTransaction(tx.id, { reason: 'not mine' });
      expect(response.status, tx.id).toBe(409);
      expect(error).toMatchObject({ code: 'TRANSACTION_NOT_CANCELLABLE' });
      expect(await getTransaction(tx.id)).toEqual(tx);
    }
    expect(await balanceOf(internal.id)).toBe(1_000);
    expect(await balanceOf(done.internal.id)).toBe(5_000);
  });

  itServer('200 once: concurrent cancels of one transfer, one succeeds and the funds come back once', async () => {
    const { internal, funding, tx } = await sentTo('005', { amount: 1_500 });
    const results = await Promise.all([cancelTransaction(tx.id), cancelTransaction(tx.id), cancelTransaction(tx.id)]);
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 409, 409]);
    expect((await getTransaction(tx.id)).status).toBe('CANCELLED');
    expect(await balanceOf(internal.id)).toBe(funding);
  });

  it('400: a malformed id or body', async () => {
    await expectInvalidRequest(await raw('POST', '/transactions/tx-1/cancel', jsonBody({})));
    await expectInvalidRequest(await raw('POST', `/transactions/${exampleTransaction}/cancel`, jsonBody({ reason: '' })));
    await expectInvalidRequest(await raw('POST', `/transactions/${exampleTransaction}/cancel`, jsonBody({ reason: 'x'.repeat(501) })));
    await expectInvalidRequest(await raw('POST', `/transactions/${exampleTransaction}/cancel`, jsonBody({ reason: 'ok', refund: true })));
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', `/transactions/${exampleTransaction}/cancel`, { auth: false, ...jsonBody({}) });
    expect(res.status).toBe(401);
  });

  itServer('a transfer-out cancelled among others of the same account: only its amount comes back', async () => {
    const { customer, internal, external } = await customerWithExternalAccount('005', { funding: 10_000 });
    const plain = await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd('000') });
    const keep = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_000 }));
    const stop = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 2_000 }));
    created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: plain.id }, amount: 3_000 }));
    expect(await balanceOf(internal.id)).toBe(4_000);
    expect((await cancelTransaction(stop.id)).response.status).toBe(200);
    expect(await balanceOf(internal.id)).toBe(6_000);
    expect((await getTransaction(keep.id)).status).toBe('PENDING');
    const statuses = Object.fromEntries((await listTransactions({ sourceAccountId: internal.id })).data.map((t) => [t.id, t.status]));
    expect(statuses[keep.id]).toBe('PENDING');
    expect(statuses[stop.id]).toBe('CANCELLED');
  });
});
