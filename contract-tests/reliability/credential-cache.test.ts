// Each server process keeps the API tokens it has verified in memory, so most requests
// authenticate without a database round trip; a deleted token must still stop working on every
// process before the DELETE answers. The hard cases are the processes that cannot take part:
// one whose listening session is frozen (it hears nothing and cannot renew its lease) and one
// killed with kill -9. Both must stop the revocation only for a bounded time, and never let the
// deleted token through afterwards. A token changed outside the API (in SQL, or by a process of a
// version without the caches) must leave the caches too, though nobody waits for it. The ordinary
// case (two live processes, dropped connections) is in server/postgres.test.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CACHE_SESSION_NAME, LEASE_TTL_MS } from '../../server/tokens/shared-credential-cache.ts';
import { call, postgresAdminUrl, startClusterFor, type Cluster } from '../support/cluster.ts';
import { startServer, type ServerProcess } from '../support/server-process.ts';
import { cleanupsAfterFile } from '../support/file-cleanups.ts';

const cleanups = cleanupsAfterFile();

const cluster = (count: number): Promise<Cluster> => startClusterFor(cleanups, postgresAdminUrl(), count);

/** A new VIEW token, used once on each of `servers` so that every one of them has it cached. */
async function tokenUsedOn(cl: Cluster, servers: ServerProcess[], name: string) {
  const created = await call(cl.servers[0] as ServerProcess, cl.token, 'POST', '/tokens', { name, permissions: ['VIEW'] }, { 'Idempotency-Key': `cache-${name}` });
  expect(created.status).toBe(201);
  const credentials = { clientId: created.body?.clientId as string, clientSecret: created.body?.clientSecret as string };
  for (const server of servers) expect((await call(server, credentials, 'GET', '/config')).status).toBe(200);
  return { id: created.body?.id as string, credentials };
}

/** A session of the test's own on the cluster's database, closed with the file. */
async function adminOf(cl: Cluster): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: cl.databaseUrl });
  await admin.connect();
  cleanups.push(() => admin.end());
  return admin;
}

async function timedDelete(server: ServerProcess, cl: Cluster, tokenId: string): Promise<number> {
  const started = performance.now();
  expect((await call(server, cl.token, 'DELETE', `/tokens/${tokenId}`)).status).toBe(204);
  return performance.now() - started;
}

describe('the per-process credential cache', () => {
  it('a process whose listening session is frozen stops using its cache by its lease: the revocation waits for it, then the token is refused everywhere', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const admin = await adminOf(cl);
    const frozen: number[] = [];
    const thaw = () => {
      for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
    };
    cleanups.push(async () => thaw());
    try {
      const token = await tokenUsedOn(cl, [a, b], 'frozen');
      // Both processes' listening sessions stop dead in PostgreSQL: no NOTIFY reaches them, no
      // acknowledgement comes back and no lease renewal answers, while their pools serve on.
      const sessions = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and application_name = $1', [CACHE_SESSION_NAME]);
      expect(sessions.rows).toHaveLength(2);
      for (const { pid } of sessions.rows) {
        process.kill(pid, 'SIGSTOP');
        frozen.push(pid);
      }
      // A cache that ignored its lease would answer 200 from memory here.
      const ms = await timedDelete(a, cl, token.id);
      for (const server of [b, a]) expect((await call(server, token.credentials, 'GET', '/config')).status).toBe(401);
      // Bounded: the wait for acknowledgements, then the rest of the fenced leases' lifetime.
      expect(ms).toBeLessThan(1_000 + LEASE_TTL_MS + 2_000);

      thaw();
      // Thawed, each process finds its lease fenced off and starts a new one; revocations are
      // quick again and still complete.
      const later = await tokenUsedOn(cl, [a, b], 'after-thaw');
      const deadline = performance.now() + 10_000;
      while ((await admin.query('select 1 from credential_cache_leases')).rowCount !== 2 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect((await admin.query('select 1 from credential_cache_leases')).rowCount).toBe(2);
      for (const server of [a, b]) expect((await call(server, later.credentials, 'GET', '/config')).status).toBe(200);
      expect(await timedDelete(b, cl, later.id)).toBeLessThan(500);
      for (const server of [a, b]) expect((await call(server, later.credentials, 'GET', '/config')).status).toBe(401);
      expect(a.output() + b.output()).toContain('fencing them off');
    } finally {
      thaw();
    }
  }, 120_000);

  it('a token deleted or changed in SQL, outside the API, is refused by every process within moments, not when its cache entry expires a minute later', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const admin = await adminOf(cl);
    /** How long until every process refuses `credentials`, polling; Infinity if one still accepts them after 5 s. */
    const refusedEverywhereAfter = async (credentials: { clientId: string; clientSecret: string }): Promise<number> => {
      const started = performance.now();
      const pending = new Set([a, b]);
      while (pending.size > 0 && performance.now() - started < 5_000) {
        for (const server of [...pending]) if ((await call(server, credentials, 'GET', '/config')).status === 401) pending.delete(server);
        if (pending.size > 0) await new Promise((r) => setTimeout(r, 20));
      }
      return pending.size === 0 ? performance.now() - started : Number.POSITIVE_INFINITY;
    };
    // Renamed in SQL: nothing that matters to authentication changed, so it keeps working.
    const renamed = await tokenUsedOn(cl, [a, b], 'renamed');
    await admin.query("update api_tokens set name = 'renamed in SQL' where client_id = $1", [renamed.credentials.clientId]);
    for (const server of [a, b]) expect((await call(server, renamed.credentials, 'GET', '/config')).status).toBe(200);
    // Soft-deleted as the API does it, but by hand; then removed outright; then its secret replaced.
    const softDeleted = await tokenUsedOn(cl, [a, b], 'soft-deleted-in-sql');
    await admin.query('update api_tokens set deleted_at = now() where client_id = $1', [softDeleted.credentials.clientId]);
    expect(await refusedEverywhereAfter(softDeleted.credentials)).toBeLessThan(2_000);
    const removed = await tokenUsedOn(cl, [a, b], 'removed-in-sql');
    await admin.query('delete from api_tokens where client_id = $1', [removed.credentials.clientId]);
    expect(await refusedEverywhereAfter(removed.credentials)).toBeLessThan(2_000);
    const rekeyed = await tokenUsedOn(cl, [a, b], 'rekeyed-in-sql');
    await admin.query("update api_tokens set secret_hash = sha256('another secret') where client_id = $1", [rekeyed.credentials.clientId]);
    expect(await refusedEverywhereAfter(rekeyed.credentials)).toBeLessThan(2_000);
    // The caches still serve the tokens nothing happened to.
    for (const server of [a, b]) expect((await call(server, cl.token, 'GET', '/config')).status).toBe(200);
  }, 120_000);

  it('a process killed with kill -9 holds a revocation up only until its lease expires; restarted, it refuses the token too', async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const token = await tokenUsedOn(cl, [a, b], 'killed');
    await b.stop('SIGKILL');
    const ms = await timedDelete(a, cl, token.id);
    expect(ms).toBeLessThan(1_000 + LEASE_TTL_MS + 2_000);
    expect((await call(a, token.credentials, 'GET', '/config')).status).toBe(401);
    const restarted = await startServer(cl.env);
    cleanups.push(() => restarted.stop());
    expect((await call(restarted, token.credentials, 'GET', '/config')).status).toBe(401);
    expect((await call(restarted, cl.token, 'GET', '/config')).status).toBe(200);
    // The dead process's lease is gone (fenced), so the next revocation is quick again.
    const next = await tokenUsedOn(cl, [a, restarted], 'after-kill');
    expect(await timedDelete(restarted, cl, next.id)).toBeLessThan(500);
    for (const server of [a, restarted]) expect((await call(server, next.credentials, 'GET', '/config')).status).toBe(401);
  }, 120_000);
});
