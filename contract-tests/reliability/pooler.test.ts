// Past one process: three server processes behind PgBouncer in transaction mode
// (DATABASE_POOL_MODE=transaction, DATABASE_DIRECT_URL for the LISTEN sessions), with fewer
// server connections than the processes' clients, so transactions queue in the pooler and run on
// whichever connection is free. Issue 46's load (24 clients, 600 requests) answers no 5xx, and the
// same load with the server's default statements (named per connection) is what the pooler breaks.
// Then the reliability proofs on such a cluster: the bank test (the seed the commit under test
// chooses; bank.test.ts keeps the fixed one on two direct processes), the idempotency races, and
// crash recovery (kill -9 under load: every outcome and webhook delivered once).
import { afterAll, describe, expect, it } from 'vitest';
import { call, postgresAdminUrl, startCluster, type Cluster } from '../support/cluster.ts';
import { CACHE_SESSION_NAME } from '../../server/tokens/shared-credential-cache.ts';
import { cleanupsAfterFile } from '../support/file-cleanups.ts';
import { withDatabase } from '../support/postgres-database.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { commitSeed } from '../support/commit-seed.ts';
import { bankOptions, bankSeeds, bankSummary, runBank } from './bank-run.ts';
import { crashRecovery } from './crash-recovery-run.ts';
import { idempotencyRaces } from './idempotency-races-suite.ts';
import { customersLoad } from './pooler-load.ts';

const cleanups = cleanupsAfterFile();
const POOL_SIZE = 4;
const POOLED = { pooler: { poolSize: POOL_SIZE } };

describe('three processes behind PgBouncer in transaction mode', () => {
  let cluster: Cluster | undefined;
  afterAll(async () => cluster?.close());

  it('24 clients, 600 requests (a third POST /customers, the rest GET /customers?limit=5): no 5xx, through a pool smaller than the clients', async () => {
    // From an empty database: the first start's migrations run through the pooler (in one transaction).
    cluster = await startCluster(postgresAdminUrl(), 3, {}, { ...POOLED, fromZero: true });
    const result = await customersLoad(cluster, 24, 600);
    console.log(`pooler load: ${JSON.stringify(result)}`);
    expect(result.errors).toEqual([]);
    expect(result.statuses).toEqual({ 200: 400, 201: 200 });
    // The transactions did queue for the pooler's few connections.
    expect(result.peak.servers).toBeLessThanOrEqual(POOL_SIZE);
    expect(result.peak.clients).toBeGreaterThan(POOL_SIZE);
    // Nothing a process did (its migrations at start included) left a lock held in the pooler's connections.
    const held = await withDatabase(cluster.databaseUrl, async (db) =>
      (await db.query(`select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`)).rows.length,
    );
    expect(held).toBe(0);
  });

  // One process, as in the trial: a second one already fails to start, on a name the first left prepared.
  // The defect shows where the pooler first hands a statement a connection other than the one that
  // prepared it: mostly under the load, sometimes already in the start's migrations (their
  // introspection of the lock table). Either is the failure this control exists to show.
  it('the control: the same load on one process with statements named per connection (no DATABASE_POOL_MODE) fails through the pooler, at start or with 5xx', async () => {
    // The pooler drops the startup `options` (jit=off) it would otherwise refuse, as the trial did.
    let named: Cluster;
    try {
      named = await startCluster(postgresAdminUrl(), 1, { DATABASE_POOL_MODE: '' }, { pooler: { poolSize: POOL_SIZE, ignoreStartupParameters: ['options'] } });
    } catch (error) {
      console.log(`pooler, named statements: refused at start: ${String(error).split('\n').find((line) => line.includes('prepared statement')) ?? ''}`);
      expect(String(error)).toMatch(/the server exited[\s\S]*prepared statement \\?"s\d+_\d+\\?" (does not exist|already exists)/);
      return;
    }
    cleanups.push(named.close);
    const result = await customersLoad(named, 24, 600);
    console.log(`pooler load, named statements: ${JSON.stringify(result.statuses)} ${result.errors[0] ?? ''}`);
    expect(Object.entries(result.statuses).filter(([status]) => Number(status) >= 500).length).toBeGreaterThan(0);
  });
});

describe('behind the pooler without DATABASE_DIRECT_URL', () => {
  it('the start says what is lost, and a deleted token is refused at once by every process, which cache no credentials', async () => {
    const cl = await startCluster(postgresAdminUrl(), 2, { DATABASE_DIRECT_URL: '' }, POOLED);
    cleanups.push(cl.close);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    for (const server of cl.servers) expect(server.output()).toMatch(/without DATABASE_DIRECT_URL: no session can LISTEN/);
    // No session of the server's own reaches the database past the pooler: nothing listens.
    const listening = await withDatabase(cl.databaseUrl, async (db) => (await db.query(`select 1 from pg_stat_activity where application_name = $1 and datname = current_database()`, [CACHE_SESSION_NAME])).rows.length);
    expect(listening).toBe(0);
    const created = await call(a, cl.token, 'POST', '/tokens', { name: 'uncached', permissions: ['VIEW'] }, { 'Idempotency-Key': 'uncached-token' });
    expect(created.status, created.text).toBe(201);
    const credentials = { clientId: created.body?.clientId as string, clientSecret: created.body?.clientSecret as string };
    for (const server of [a, b, a, b]) expect((await call(server, credentials, 'GET', '/config')).status).toBe(200);
    expect((await call(a, cl.token, 'DELETE', `/tokens/${created.body?.id as string}`)).status).toBe(204);
    for (const server of [b, a]) expect((await call(server, credentials, 'GET', '/config')).status).toBe(401);
  });
});

describe('the reliability proofs on three processes behind PgBouncer in transaction mode', () => {
  for (const seed of bankSeeds(commitSeed())) {
    it(`the bank test, seed ${seed}: 2,000 operations keep every invariant (no 5xx among them)`, async () => {
      const result = await runBank({ ...bankOptions(seed, 2_000), processes: 3, cluster: POOLED });
      console.log(`through PgBouncer: ${bankSummary(result)}`);
      expect(result.violations, `seed ${seed} (run again with BANK_SEEDS=${seed})`).toEqual([]);
      expect(Object.values(result.tally).reduce((n, t) => n + t.accepted + t.refused, 0)).toBe(2_000);
    });
  }

  it('kill -9 of one of three processes under load, then a restart: every outcome and webhook once, nothing lost', () => crashRecovery(cleanups, 3, POOLED), 300_000);
});

idempotencyRaces('idempotency races: three processes behind PgBouncer in transaction mode', 3, POOLED);
