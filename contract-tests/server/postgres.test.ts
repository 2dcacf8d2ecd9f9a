// What only a real PostgreSQL shows, each on a database and servers of its own (so no other test
// file sees the faults): connections dropped under the server, and two server processes sharing
// one database (webhooks delivered once, one limit on failed authentications, an Idempotency-Key
// in flight in one process and orphaned by a killed one). The database dump check is in
// reliability/security.test.ts, with every kind of secret.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { target } from '../support/api.ts';
import { call, startCluster, type Cluster } from '../support/cluster.ts';
import { adminUrlOf } from '../support/postgres-database.ts';
import { keyHeld } from '../support/in-flight.ts';
import { advanceClock, type ServerProcess } from '../support/server-process.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const onPostgres = target === 'postgres';
// After each test, not the file: a test's server processes hold database connections, and files
// run side by side share one PostgreSQL's limit of them.
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** `count` server processes on one fresh database of the suite's PostgreSQL server, stopped and dropped after the file. */
async function cluster(count: number, env: NodeJS.ProcessEnv = {}): Promise<Cluster> {
  const started = await startCluster(adminUrlOf(inject('databaseUrl')), count, env);
  drops.push(started.close);
  return started;
}

async function fundedAccount(server: ServerProcess, token: Cluster['token']): Promise<string> {
  const customer = await call(server, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' });
  const accounts = await call(server, token, 'GET', `/customers/internal-accounts?customerId=${customer.body?.id as string}`);
  return ((accounts.body?.data as { id: string }[])[0] as { id: string }).id;
}

const balance = async (server: ServerProcess, token: Cluster['token'], accountId: string) =>
  ((await call(server, token, 'GET', `/internal-accounts/${accountId}`)).body?.balance as { amount: number }).amount;

describe.skipIf(!onPostgres)('on PostgreSQL', () => {
  it('connections dropped under the server (pg_terminate_backend) are replaced: it logs and keeps serving', async () => {
    const { databaseUrl, token, servers } = await cluster(1);
    const server = servers[0] as ServerProcess;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // pg_terminate_backend only signals a backend, which exits a moment later: the next request
    // must not reach the server before the backends are gone (on a busy machine it did, and took
    // a connection still closing). Waited for until pg_stat_activity no longer lists them.
    const terminate = async () => {
      const { rows } = await admin.query<{ pid: number }>('select pid, pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      const pids = rows.map((r) => r.pid);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids])).rowCount !== 0) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      const statuses: number[] = [];
      const load = Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i * 15));
          const res = await call(server, token, 'GET', '/config');
          statuses.push(res.status);
          if (res.status !== 200) expect(res.body).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
        }),
      );
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 250));
        await terminate();
      }
      await load;
      expect(statuses.every((s) => s === 200 || s === 500)).toBe(true);
      expect(server.child.exitCode).toBeNull();
      for (let i = 0; i < 10; i++) expect((await call(server, token, 'GET', '/config')).status).toBe(200);
      expect(server.output()).toContain('database connection lost');
    } finally {
      await admin.end();
    }
  }, 120_000);

  describe('two server processes on one database', () => {
    it('deliver each webhook exactly once', async () => {
      const { token, servers } = await cluster(2);
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const receiver = await startWebhookReceiver();
      try {
        await call(a, token, 'PATCH', '/config', { webhookEndpoint: receiver.url });
        // 20 verifications, half through each process: 2 events each.
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const via = i % 2 === 0 ? a : b;
            const customer = await call(via, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Person ${i}` });
            expect((await call(via, token, 'POST', '/verifications', { customerId: customer.body?.id })).status).toBe(200);
          }),
        );
        const events = () => receiver.received.filter((w) => (JSON.parse(w.body) as { type: string }).type !== 'TEST');
        const deadline = Date.now() + 30_000;
        while (events().length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive meanwhile
        const ids = events().map((w) => w.headers['webhook-id']);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
      } finally {
        await receiver.close();
      }
    }, 120_000);

    it('share one limit on failed authentications, per address: the guessing one is refused on both, the owner served on both', async () => {
      const { token, servers } = await cluster(2, { TRUST_PROXY: 'loopback' });
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const wrong = { ...token, clientSecret: 'not-the-secret' };
      const guesser = { 'X-Forwarded-For': '192.0.2.66' };
      const owner = { 'X-Forwarded-For': '198.51.100.7' };
      // Each process has verified (and cached) the token for both addresses before the failures.
      for (const server of [a, b]) for (const from of [guesser, owner]) expect((await call(server, token, 'GET', '/config', undefined, from)).status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await call(i % 2 === 0 ? a : b, wrong, 'GET', '/config', undefined, guesser)).status).toBe(401);
      for (const server of [a, b]) {
        const res = await call(server, token, 'GET', '/config', undefined, guesser);
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await call(server, token, 'GET', '/config', undefined, owner)).status).toBe(200);
      }
    }, 120_000);

    it('issue device codes in one process while the same agents redeem theirs in the other: never a 5xx (no deadlock surfaces)', async () => {
      const cl = await cluster(2);
      const [a, b] = cl.servers as [ServerProcess, ServerProcess];
      const policy = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
      const redeem = async (server: ServerProcess, code: string) => (await fetch(`${server.baseUrl}/agents/device-codes/${code}/redeem`, { method: 'POST' })).status;
      const agents = await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          const customer = await call(a, cl.token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Agent owner ${i}` });
          const created = await call(a, cl.token, 'POST', '/agents', { name: `Racing ${i}`, customerId: customer.body?.id, policy });
          expect(created.status).toBe(201);
          return { id: (created.body?.agent as { id: string }).id, code: (created.body?.deviceCode as { code: string }).code };
        }),
      );
      // Issuing locks the agent, then its open codes; redeeming used to lock the code, then the
      // agent: the two orders met in 40P01 deadlocks, answered 500. Each round, every agent's open
      // code has expired (the clocks move 16 minutes), so its redeem takes both locks and fails
      // (400) without connecting the agent, while a new code is issued through the other process;
      // the redeem starts 0 to 19 ms late, a different delay each round, to sweep the moment when
      // the issue holds the agent and is about to replace the code.
      const statuses: number[] = [];
      for (let round = 0; round < 12; round++) {
        for (const server of [a, b]) await advanceClock(server.origin, 16 * 60_000);
        await Promise.all(
          agents.map(async (agent, i) => {
            const [redeemed, issued] = await Promise.all([
              sleep((i + round * 7) % 20).then(() => redeem(round % 2 === 0 ? b : a, agent.code)),
              call(round % 2 === 0 ? a : b, cl.token, 'POST', `/agents/${agent.id}/device-codes`),
            ]);
            statuses.push(redeemed, issued.status);
            if (issued.status === 201) agent.code = (issued.body as { code: string }).code;
          }),
        );
      }
      const counts = Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, statuses.filter((x) => x === s).length]));
      console.log(`device codes issued and redeemed concurrently on two processes: ${JSON.stringify(counts)}`);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(counts).toEqual({ 201: 16 * 12, 400: 16 * 12 });
    }, 180_000);

    it('a deleted API token stops working at once on every process that has used it, also right after their connections were dropped', async () => {
      const cl = await cluster(2);
      const [a, b] = cl.servers as [ServerProcess, ServerProcess];
      const admin = new pg.Client({ connectionString: cl.databaseUrl });
      await admin.connect();
      try {
        for (let round = 0; round < 20; round++) {
          // Every fifth round, right after every connection of the servers was dropped (their
          // listening ones too): until a process listens again it must not trust its cache.
          if (round % 5 === 4) await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
          // A pooled connection that died idle fails the request that next takes it (a 500, nothing
          // stored under the key): the retry gets a fresh one.
          let created = await call(a, cl.token, 'POST', '/tokens', { name: `revoked ${round}`, permissions: ['VIEW'] }, { 'Idempotency-Key': `revoke-${round}` });
          for (let retry = 0; created.status === 500 && retry < 10; retry++) {
            created = await call(a, cl.token, 'POST', '/tokens', { name: `revoked ${round}`, permissions: ['VIEW'] }, { 'Idempotency-Key': `revoke-${round}` });
          }
          expect(created.status).toBe(201);
          const revoked = { clientId: created.body?.clientId as string, clientSecret: created.body?.clientSecret as string };
          for (const server of [a, b]) {
            let used = await call(server, revoked, 'GET', '/config');
            for (let retry = 0; used.status === 500 && retry < 10; retry++) used = await call(server, revoked, 'GET', '/config');
            expect(used.status).toBe(200);
          }
          expect((await call(a, cl.token, 'DELETE', `/tokens/${created.body?.id as string}`)).status).toBe(204);
          for (const server of [b, a]) expect((await call(server, revoked, 'GET', '/config')).status, `round ${round}, process ${server === a ? 'A' : 'B'}`).toBe(401);
        }
      } finally {
        await admin.end();
      }
    }, 120_000);

    it('an Idempotency-Key in flight in one process is 409 in the other; orphaned by a killed process, it is free at once', async () => {
      const cl = await cluster(2);
      const [a, b] = cl.servers as [ServerProcess, ServerProcess];
      const account = await fundedAccount(a, cl.token);
      const fund = (server: ServerProcess, key: string, extra: Record<string, string> = {}) =>
        call(server, cl.token, 'POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 700 }, { 'Idempotency-Key': key, ...extra });

      const slow = fund(a, 'in-flight', { 'x-test-delay-ms': '2000' });
      await keyHeld('in-flight', cl.databaseUrl);
      const duplicate = await fund(b, 'in-flight');
      expect(duplicate.status).toBe(409);
      expect(duplicate.body?.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect((await slow).status).toBe(200);
      const replay = await fund(b, 'in-flight');
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await balance(b, cl.token, account)).toBe(700);

      // Process A dies (kill -9) holding the key's transaction open: nothing of it committed, and
      // the key is free the moment its connection is gone, not a minute later.
      void fund(a, 'orphaned', { 'x-test-delay-ms': '10000' }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      await a.stop('SIGKILL');
      const deadline = Date.now() + 10_000;
      let retried = await fund(b, 'orphaned');
      // PostgreSQL notices the dead connection within moments; until then the key is in use.
      while (retried.status === 409 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        retried = await fund(b, 'orphaned');
      }
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(await balance(b, cl.token, account)).toBe(1400);
    }, 120_000);
  });
});
