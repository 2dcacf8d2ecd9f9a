// Money under real concurrency, which only PostgreSQL has: two server processes on one database of
// this file's own take concurrent transfers in and out of the same accounts, some of which the
// balance cannot cover. Whatever the interleaving, the balance is exactly what the accepted
// transfers say, never negative, every balance equals its ledger entries, and each delayed failure
// (a durable job) credits its amount back exactly once, even when the process that scheduled it was
// killed and two live processes race to run it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { target } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { adminUrlOf, createDatabase, withDatabase } from '../support/postgres-database.ts';
import { advanceClock, jsonHeaders, newCredentials, startServer, type ServerProcess } from '../support/server-process.ts';

// After each test, not the file: a test's server processes hold database connections, and files
// run side by side share one PostgreSQL's limit of them.
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Token = ReturnType<typeof newCredentials>;
type Body = Record<string, unknown>;

interface Cluster {
  env: NodeJS.ProcessEnv;
  token: Token;
  databaseUrl: string;
  servers: ServerProcess[];
  /** Another process on the same database, master key and credentials. */
  start(): Promise<ServerProcess>;
}

/** `count` server processes on one fresh database, with one master key and one bootstrap token. */
async function cluster(count: number): Promise<Cluster> {
  const database = await createDatabase(adminUrlOf(inject('databaseUrl')), 'money');
  const token = newCredentials();
  const env = { DATABASE_URL: database.url, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'), PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret };
  const servers: ServerProcess[] = [];
  // Processes stop before their database is dropped (cleanups run in order).
  cleanups.push(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await database.drop();
  });
  const start = async () => {
    const server = await startServer(env);
    servers.push(server);
    return server;
  };
  // One after the other: the first one migrates and bootstraps.
  for (let i = 0; i < count; i++) await start();
  return { env, token, databaseUrl: database.url, servers: [...servers], start };
}

async function call(server: ServerProcess, token: Token, method: string, path: string, body?: unknown): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers: jsonHeaders(token), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Body) };
}

/** A request that must succeed with `status`: fails the test with the answer otherwise. */
async function ok(server: ServerProcess, token: Token, method: string, path: string, body: unknown, status: number): Promise<Body> {
  const res = await call(server, token, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** A new customer's USD internal account, funded with `funding`, and external accounts ending in `suffixes`. */
async function customerWithAccounts(server: ServerProcess, token: Token, funding: number, suffixes: string[]) {
  const customer = await ok(server, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' }, 201);
  const customerId = customer.id as string;
  const accounts = await ok(server, token, 'GET', `/customers/internal-accounts?customerId=${customerId}&currency=USD`, undefined, 200);
  const internal = ((accounts.data as { id: string }[])[0] as { id: string }).id;
  await ok(server, token, 'POST', `/sandbox/internal-accounts/${internal}/fund`, { amount: funding }, 200);
  const external: Record<string, string> = {};
  for (const suffix of suffixes) {
    const created = await ok(server, token, 'POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd(suffix) }, 201);
    external[suffix] = created.id as string;
  }
  return { customerId, internal, external };
}

const balanceOf = async (server: ServerProcess, token: Token, accountId: string): Promise<number> =>
  ((await ok(server, token, 'GET', `/internal-accounts/${accountId}`, undefined, 200)).balance as { amount: number }).amount;

async function ledgerCheck(server: ServerProcess): Promise<Body> {
  const res = await fetch(`${server.origin}/__test/ledger/check`);
  expect(res.status).toBe(200);
  return (await res.json()) as Body;
}

async function expectConsistent(servers: ServerProcess[]): Promise<void> {
  for (const server of servers) {
    const report = await ledgerCheck(server);
    expect(report, JSON.stringify(report)).toMatchObject({ consistent: true, balanceDifferences: [], unbalancedMovements: [], strandedHolds: [] });
  }
}

/** Polls until `done` holds, failing with `what` after `timeoutMs`. */
async function eventually(what: string, done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOf = async (server: ServerProcess, token: Token, transactionId: string): Promise<string> =>
  (await ok(server, token, 'GET', `/transactions/${transactionId}`, undefined, 200)).status as string;

/** The database's own record of a transaction's money steps, and of the jobs that moved it. */
const movementKinds = async (db: pg.Client, transactionIds: string[]): Promise<Record<string, string[]>> => {
  const rows = await db.query<{ transaction_id: string; kind: string }>('select transaction_id, kind from ledger_movements where transaction_id = any($1) order by created_at, kind', [transactionIds]);
  const byTransaction: Record<string, string[]> = Object.fromEntries(transactionIds.map((id) => [id, []]));
  for (const row of rows.rows) byTransaction[row.transaction_id]?.push(row.kind);
  return byTransaction;
};

const outcomeJobs = async (db: pg.Client, transactionIds: string[]) =>
  (await db.query<{ transaction_id: string; status: string; attempts: number }>(
    `select payload->>'transactionId' as transaction_id, status, attempts from jobs where kind = 'transactions.scheduled-change' and payload->>'transactionId' = any($1) order by 1`,
    [transactionIds],
  )).rows;

describe.skipIf(target !== 'postgres')('money on PostgreSQL, two server processes on one database', () => {
  it('concurrent transfers in and out, some beyond the balance: exact balances, no 5xx, one credit-back per failed transfer', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const { token } = cl;
    const FUNDING_X = 10_000;
    const FUNDING_Y = 5_000;
    const x = await customerWithAccounts(a, token, FUNDING_X, ['000', '004']);
    const y = await customerWithAccounts(b, token, FUNDING_Y, ['000']);

    interface Planned {
      kind: 'out000' | 'out004' | 'in000';
      account: 'x' | 'y';
      amount: number;
    }
    const plan: Planned[] = [
      // X: 12 × 1000 + 4 × 500 = 14 000 asked for, at most 10 000 + 4 × 300 = 11 200 there.
      ...Array.from({ length: 12 }, (): Planned => ({ kind: 'out000', account: 'x', amount: 1_000 })),
      ...Array.from({ length: 4 }, (): Planned => ({ kind: 'out004', account: 'x', amount: 500 })),
      ...Array.from({ length: 4 }, (): Planned => ({ kind: 'in000', account: 'x', amount: 300 })),
      // Y: money both ways at once, all of it covered (5 000 − 6 × 700 ≥ 0 whatever the order).
      ...Array.from({ length: 6 }, (): Planned => ({ kind: 'out000', account: 'y', amount: 700 })),
      ...Array.from({ length: 6 }, (): Planned => ({ kind: 'in000', account: 'y', amount: 400 })),
    ];
    // Interleaved, so each process gets both accounts and both directions.
    const shuffled = plan.map((p, i) => ({ p, order: (i * 7919) % plan.length })).sort((l, r) => l.order - r.order).map((e) => e.p);

    // A reader samples both balances while the transfers run: never below zero.
    let sampling = true;
    const sampled: number[] = [];
    const sampler = (async () => {
      while (sampling) {
        sampled.push(await balanceOf(a, token, x.internal), await balanceOf(b, token, y.internal));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const results = await Promise.all(
      shuffled.map(async (p, i) => {
        const via = i % 2 === 0 ? a : b;
        const owner = p.account === 'x' ? x : y;
        const suffix = p.kind === 'out004' ? '004' : '000';
        const body =
          p.kind === 'in000'
            ? { source: { accountId: owner.external[suffix] }, destination: { accountId: owner.internal }, amount: p.amount }
            : { source: { accountId: owner.internal }, destination: { accountId: owner.external[suffix] }, amount: p.amount };
        const res = await call(via, token, 'POST', p.kind === 'in000' ? '/transfer-in' : '/transfer-out', body);
        return { ...p, ...res };
      }),
    );
    sampling = false;
    await sampler;

    const unexpected = results.filter((r) => !(r.status === 201 || (r.status === 400 && r.body.code === 'INSUFFICIENT_FUNDS' && r.kind !== 'in000' && r.account === 'x')));
    expect(unexpected.map((r) => `${r.kind} ${r.account}: ${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 400);
    expect(refused.length).toBeGreaterThanOrEqual(3); // at least 14 000 − 11 200 could not be covered
    for (const r of accepted) {
      const moved = { amount: r.amount, currency: { code: 'USD' } };
      expect(r.body).toMatchObject({
        status: r.kind === 'out004' ? 'PROCESSING' : 'COMPLETED',
        ...(r.kind === 'in000' ? { type: 'INCOMING', receivedAmount: moved } : { type: 'OUTGOING', sentAmount: moved }),
      });
    }
    const sum = (account: 'x' | 'y', kind: Planned['kind']) => accepted.filter((r) => r.account === account && r.kind === kind).reduce((s, r) => s + r.amount, 0);
    const expectedX = FUNDING_X + sum('x', 'in000') - sum('x', 'out000') - sum('x', 'out004');
    const expectedY = FUNDING_Y + sum('y', 'in000') - sum('y', 'out000');
    expect(sum('y', 'out000')).toBe(6 * 700);
    expect(sum('y', 'in000')).toBe(6 * 400);
    expect(sum('x', 'in000')).toBe(4 * 300);
    expect(expectedX).toBeGreaterThanOrEqual(0);
    for (const server of [a, b]) {
      expect(await balanceOf(server, token, x.internal)).toBe(expectedX);
      expect(await balanceOf(server, token, y.internal)).toBe(expectedY);
    }
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.filter((v) => v < 0)).toEqual([]);
    // A refused transfer left nothing behind: the account lists its funding and the accepted ones only.
    const listed = await ok(a, token, 'GET', `/transactions?accountId=${x.internal}&limit=100`, undefined, 200);
    expect(listed.totalCount).toBe(1 + accepted.filter((r) => r.account === 'x').length);
    await expectConsistent([a, b]);

    // The 004 transfers fail 3 s later by the sandbox clock, which each process keeps for itself.
    const failing = accepted.filter((r) => r.kind === 'out004').map((r) => r.body.id as string);
    expect(failing.length).toBeGreaterThan(0);
    await withDatabase(cl.databaseUrl, async (db) => {
      expect(Object.values(await movementKinds(db, failing))).toEqual(failing.map(() => ['HOLD']));
    });
    await Promise.all([advanceClock(a.origin, 3_500), advanceClock(b.origin, 3_500)]);
    await eventually('every 004 transfer is FAILED', async () => (await Promise.all(failing.map((id) => statusOf(b, token, id)))).every((s) => s === 'FAILED'));
    for (const id of failing) {
      expect(await ok(a, token, 'GET', `/transactions/${id}`, undefined, 200)).toMatchObject({ status: 'FAILED', failureReason: 'BANK_REJECTED' });
    }
    const creditedBack = expectedX + sum('x', 'out004');
    for (const server of [a, b]) {
      expect(await balanceOf(server, token, x.internal)).toBe(creditedBack);
      expect(await balanceOf(server, token, y.internal)).toBe(expectedY);
    }
    await withDatabase(cl.databaseUrl, async (db) => {
      expect(Object.values(await movementKinds(db, failing))).toEqual(failing.map(() => ['HOLD', 'RELEASE']));
      expect((await outcomeJobs(db, failing)).map((j) => ({ status: j.status, attempts: j.attempts }))).toEqual(failing.map(() => ({ status: 'DONE', attempts: 1 })));
    });
    await expectConsistent([a, b]);
  }, 180_000);

  it('a PENDING transfer whose process was killed fails once on a fresh process, with two live processes racing for its job', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const { token } = cl;
    const FUNDING = 50_000;
    const x = await customerWithAccounts(a, token, FUNDING, ['005']);
    const pending: string[] = [];
    // More than a runner leases in one batch (10), so both live runners find some of them due.
    for (let i = 1; i <= 24; i++) {
      const created = await ok(a, token, 'POST', '/transfer-out', { source: { accountId: x.internal }, destination: { accountId: x.external['005'] }, amount: 100 * i }, 201);
      expect(created.status).toBe('PENDING');
      pending.push(created.id as string);
    }
    const held = 100 * ((24 * 25) / 2); // 100 + 200 + … + 2 400
    expect(await balanceOf(b, token, x.internal)).toBe(FUNDING - held);

    // The process that scheduled the failures dies without a word; a fresh one starts on the database.
    await a.stop('SIGKILL');
    const c = await cl.start();
    // Not due yet on the new process's clock: nothing moves.
    expect(await statusOf(c, token, pending[0] as string)).toBe('PENDING');
    // Both live processes' clocks pass the 30 s at once: both runners look for the due jobs together.
    await Promise.all([advanceClock(b.origin, 31_000), advanceClock(c.origin, 31_000)]);
    await eventually('every 005 transfer is FAILED', async () => (await Promise.all(pending.map((id) => statusOf(c, token, id)))).every((s) => s === 'FAILED'));
    // A duplicate run would land within moments: give it the time, then everything is still once.
    await new Promise((r) => setTimeout(r, 1_000));
    for (const server of [b, c]) expect(await balanceOf(server, token, x.internal)).toBe(FUNDING);
    const outgoing = await ok(c, token, 'GET', `/transactions?accountId=${x.internal}&type=OUTGOING&limit=100`, undefined, 200);
    expect(outgoing.totalCount).toBe(24);
    const rows = outgoing.data as { id: string; status: string; failureReason?: string }[];
    expect(rows.map((r) => r.id).sort()).toEqual([...pending].sort());
    expect(rows.every((r) => r.status === 'FAILED' && r.failureReason === 'BANK_REJECTED')).toBe(true);
    await withDatabase(cl.databaseUrl, async (db) => {
      expect(Object.values(await movementKinds(db, pending))).toEqual(pending.map(() => ['HOLD', 'RELEASE']));
      expect((await outcomeJobs(db, pending)).map((j) => ({ status: j.status, attempts: j.attempts }))).toEqual(pending.map(() => ({ status: 'DONE', attempts: 1 })));
      // One OUTGOING_PAYMENT_FAILED event per transfer: the failure was reported once too.
      const failedEvents = await db.query<{ id: string; n: string }>(
        `select payload->'data'->>'id' as id, count(*) as n from webhook_outbox where type = 'OUTGOING_PAYMENT_FAILED' group by 1 order by 1`,
      );
      expect(failedEvents.rows.map((r) => ({ id: r.id, n: Number(r.n) }))).toEqual([...pending].sort().map((id) => ({ id, n: 1 })));
    });
    await expectConsistent([b, c]);
  }, 180_000);
  it('conversions between two accounts in both directions at once: no deadlock, no 5xx, exact balances on both sides', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const { token } = cl;
    const customer = await ok(a, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD', 'EUR'] }, 201);
    const accounts = (await ok(a, token, 'GET', `/customers/internal-accounts?customerId=${customer.id as string}`, undefined, 200)).data as { id: string; balance: { currency: { code: string } } }[];
    const usd = accounts.find((x) => x.balance.currency.code === 'USD')?.id ?? '';
    const eur = accounts.find((x) => x.balance.currency.code === 'EUR')?.id ?? '';
    await ok(a, token, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 20_000 }, 200);
    await ok(a, token, 'POST', `/sandbox/internal-accounts/${eur}/fund`, { amount: 20_000 }, 200);
    // 12 × 2 500 asked of each side, 20 000 there (plus what arrives meanwhile): some are refused.
    const results = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const [from, to] = i % 2 === 0 ? [usd, eur] : [eur, usd];
        const body = { source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_500, immediatelyExecute: true };
        return { from, ...(await call(i % 4 < 2 ? a : b, token, 'POST', '/quotes', body)) };
      }),
    );
    const unexpected = results.filter((r) => !(r.status === 201 || (r.status === 400 && r.body.code === 'INSUFFICIENT_FUNDS')));
    if (unexpected.length > 0) console.log(a.output().slice(-6000));
    expect(unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted.every((r) => r.body.status === 'COMPLETED')).toBe(true);
    const net = (account: string) =>
      accepted.reduce((sum, r) => sum + (r.from === account ? -(r.body.totalSendingAmount as number) : r.body.totalReceivingAmount as number), 20_000);
    expect(await balanceOf(b, token, usd)).toBe(net(usd));
    expect(await balanceOf(b, token, eur)).toBe(net(eur));
    await expectConsistent(cl.servers);
  }, 120_000);
});
