// The database failing under write load: connections dropped under the servers
// (pg_terminate_backend) on the machine's PostgreSQL, and a restart of a PostgreSQL of the test's
// own. Either way a request in flight either commits all of its effect and answers 2xx, or commits
// nothing and answers 500 in the documented error body (the spec documents no 503), and under
// dropped connections few answer 500: a transaction lost before its COMMIT runs again; no request
// hangs; the servers serve again by themselves; and retrying the 500s with their Idempotency-Key
// gives every write exactly one effect, which the balances and the ledger check confirm.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAdminUrl, startClusterFor, type Cluster } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { startPrivatePostgres, type PrivatePostgres } from './faults-private-postgres.ts';
import {
  balanceOf,
  eventually,
  expectLedgerConsistent,
  expectServerErrorShape,
  newHolder,
  NO_REPLY,
  ok,
  sleep,
  transferBody,
  tryCall,
  type Holder,
} from './faults-helpers.ts';
import { withDatabase } from '../support/postgres-database.ts';
import { runLoad, settle, statusCounts, type Sent } from './faults-load.ts';
import { cleanupsAfterFile } from '../support/file-cleanups.ts';

const cleanups = cleanupsAfterFile();

const cluster = (adminUrl: string): Promise<Cluster> => startClusterFor(cleanups, adminUrl, 2);

interface Transfer {
  direction: 'in' | 'out';
  amount: number;
}

/** Transfers in and out of one funded account (all covered), alternating, with small distinct amounts. */
const transfers = (holder: Holder) => (n: number) => {
  const direction = n % 2 === 0 ? 'out' : 'in';
  const amount = 100 + (n % 13);
  return { method: 'POST', path: `/transfer-${direction}`, body: transferBody(holder, direction, '000', amount), meta: { direction, amount } as Transfer };
};

/** Every Idempotency-Key of `keys` that has a stored response: the key commits with the write's effect. */
async function storedKeys(databaseUrl: string, keys: string[]): Promise<Set<string>> {
  return withDatabase(databaseUrl, async (db) => new Set((await db.query<{ k: string }>('select idempotency_key as k from idempotency_keys where idempotency_key = any($1)', [keys])).rows.map((r) => r.k)));
}

/**
 * What every fault test asserts of its writes: first answers are 201 or the documented 500; a 201's
 * effect is committed and a 500's is not (its key holds no response); a retry of each 500 with its
 * key runs it afresh; afterwards the balance and the number of transactions are what exactly one
 * effect per write makes.
 */
async function expectOneEffectPerWrite(cl: Cluster, server: ServerProcess, holder: Holder, funding: number, sent: Sent<Transfer>[], others = 0): Promise<void> {
  const unexpected = sent.filter((s) => s.first.status !== 201 && s.first.status !== 500);
  expect(unexpected.map((s) => `${s.first.status} ${s.first.text}`)).toEqual([]);
  for (const s of sent.filter((w) => w.first.status === 500)) expectServerErrorShape(s.first);
  const stored = await storedKeys(cl.databaseUrl, sent.map((s) => s.key));
  expect(sent.filter((s) => s.first.status === 201 && !stored.has(s.key)).map((s) => s.key), '201 without its effect').toEqual([]);
  expect(sent.filter((s) => s.first.status === 500 && stored.has(s.key)).map((s) => s.key), '500 with an effect').toEqual([]);

  await settle(sent, server, cl.token);
  for (const s of sent.filter((w) => w.first.status === 500)) {
    expect(s.final?.status, s.final?.text).toBe(201);
    // A 500 left nothing behind, so its retry is a first run, not a replay.
    expect(s.final?.headers.get('idempotent-replayed')).toBeNull();
  }
  const net = sent.reduce((sum, s) => sum + (s.meta.direction === 'in' ? s.meta.amount : -s.meta.amount), 0);
  expect(await balanceOf(server, cl.token, holder.internal)).toBe(funding + net);
  const listed = await ok(server, cl.token, 'GET', `/transactions?accountId=${holder.internal}&limit=1`, undefined, 200);
  expect(listed.totalCount).toBe(1 + others + sent.length); // the funding, the test's others, and one per write
  expect(new Set(sent.map((s) => s.final?.body?.id)).size).toBe(sent.length);
}

describe('the database failing under write load', () => {
  it('connections dropped under two servers (pg_terminate_backend): 201 with its effect or, for at most 13 in 472, 500 without, and they keep serving', async () => {
    const cl = await cluster(postgresAdminUrl());
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const FUNDING = 1_000_000;
    const holder = await newHolder(a, cl.token, FUNDING, ['000']);
    const admin = new pg.Client({ connectionString: cl.databaseUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    let terminated = 0;
    const terminate = async () => {
      const { rows } = await admin.query<{ n: string }>(
        'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      terminated += Number(rows[0]?.n ?? 0);
    };

    let running = true;
    const load = runLoad({
      servers: () => [a, b],
      token: cl.token,
      workers: 8,
      running: () => running,
      plan: transfers(holder),
      // Some transactions stay open a little after their handler, so a drop lands inside them too.
      extraHeaders: (n): Record<string, string> => (n % 3 === 0 ? { 'x-test-delay-ms': '40' } : {}),
    });
    for (let i = 0; i < 6; i++) {
      await sleep(300);
      await terminate();
    }
    await sleep(500);
    running = false;
    const sent = await load;

    const counts = statusCounts(sent.map((s) => s.first));
    console.log(`dropped connections: ${sent.length} writes, first answers ${JSON.stringify(counts)}, ${terminated} backends terminated`);
    expect(terminated).toBeGreaterThan(0);
    // A transaction whose connection was lost before its COMMIT runs again on a fresh connection:
    // what is left are COMMITs lost with their connection (issue 42: 35 of 480, and 13 of 472 the
    // turn before; a pooled connection cut while idle and handed out again was 16 of the 35). The
    // read of the platform's sandbox clock that starts every request, outside any transaction, was
    // 1 to 4 of about 85 until a lost connection under it was read again (0 in 7 runs since).
    expect(counts['500'] ?? 0, `${counts['500']} of ${sent.length} answered 500`).toBeLessThanOrEqual(Math.ceil((sent.length * 13) / 472));
    // Nothing hung: the slowest write still answered within seconds.
    expect(Math.max(...sent.map((s) => s.first.ms))).toBeLessThan(10_000);
    for (const server of [a, b]) {
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).toContain('database connection lost');
      for (let i = 0; i < 5; i++) expect((await tryCall(server, cl.token, 'GET', '/config')).status).toBe(200);
    }
    await expectOneEffectPerWrite(cl, b, holder, FUNDING, sent);
    await expectLedgerConsistent(a);
  }, 180_000);

  it('a PostgreSQL restart under two servers: 500 at once while it is down, 201 with its effect or 500 without, and they serve again unrestarted', async () => {
    const postgres: PrivatePostgres = await startPrivatePostgres();
    cleanups.push(() => postgres.destroy());
    const cl = await cluster(postgres.adminUrl);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const pids = [a.child.pid, b.child.pid];
    const FUNDING = 1_000_000;
    const holder = await newHolder(a, cl.token, FUNDING, ['000', '004']);
    // Sandbox outcomes that fall due (3 s after the transfer) while PostgreSQL is down: the job
    // runners must get through the restart and apply each once.
    const failing: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await ok(b, cl.token, 'POST', '/transfer-out', transferBody(holder, 'out', '004', 1_000), 201);
      expect(created.status).toBe('PROCESSING');
      failing.push(created.id as string);
    }

    let running = true;
    const load = runLoad({ servers: () => [a, b], token: cl.token, workers: 6, running: () => running, plan: transfers(holder) });
    await sleep(800);
    await postgres.stop();
    const down = Date.now();
    // While it is down: a clean 500 at once, for a read, a write and a rejected login alike.
    const probes = await Promise.all(
      [a, b].flatMap((server) => [
        tryCall(server, cl.token, 'GET', '/config', undefined, {}, 15_000),
        tryCall(server, cl.token, 'POST', '/transfer-out', transferBody(holder, 'out', '000', 1), { 'Idempotency-Key': `probe-${server.port}` }, 15_000),
        tryCall(server, { ...cl.token, clientSecret: 'wrong' }, 'GET', '/config', undefined, {}, 15_000),
      ]),
    );
    for (const probe of probes) {
      expect(probe.status, probe.text).toBe(500);
      expectServerErrorShape(probe);
    }
    const slowestProbe = Math.max(...probes.map((p) => p.ms));
    expect(slowestProbe).toBeLessThan(5_000);
    await sleep(3_000);
    await postgres.start();
    const downMs = Date.now() - down;
    await sleep(1_500);
    running = false;
    const sent = await load;

    const counts = statusCounts(sent.map((s) => s.first));
    console.log(
      `PostgreSQL restart: down ${downMs} ms, probes answered 500 within ${Math.round(slowestProbe)} ms; ${sent.length} writes, first answers ${JSON.stringify(counts)}, slowest ${Math.round(Math.max(...sent.map((s) => s.first.ms)))} ms`,
    );
    expect(counts[NO_REPLY] ?? 0, 'a request hung or a server went away').toBe(0);
    expect(counts['500'] ?? 0).toBeGreaterThan(0);
    expect(Math.max(...sent.map((s) => s.first.ms))).toBeLessThan(10_000);
    // The same processes serve again, without a restart.
    expect([a.child.pid, b.child.pid]).toEqual(pids);
    for (const server of [a, b]) {
      expect(server.child.exitCode).toBeNull();
      await eventually('the server serves again', async () => (await tryCall(server, cl.token, 'GET', '/config')).status === 200, 15_000);
    }
    await eventually('every 004 transfer is FAILED', async () => {
      const statuses = await Promise.all(failing.map(async (id) => (await ok(a, cl.token, 'GET', `/transactions/${id}`, undefined, 200)).status));
      return statuses.every((s) => s === 'FAILED');
    });
    // Credited back once each: the balance is the funding plus the writes, as if they never were.
    await expectOneEffectPerWrite(cl, a, holder, FUNDING, sent, failing.length);
    await withDatabase(cl.databaseUrl, async (db) => {
      const { rows } = await db.query<{ kinds: string[] }>('select array_agg(kind order by created_at, kind) as kinds from ledger_movements where transaction_id = any($1) group by transaction_id', [failing]);
      expect(rows.map((r) => r.kinds)).toEqual(failing.map(() => ['HOLD', 'RELEASE']));
    });
    for (const server of [a, b]) await expectLedgerConsistent(server);
  }, 180_000);
});
