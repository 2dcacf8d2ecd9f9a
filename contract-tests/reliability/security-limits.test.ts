// Security properties only a real deployment shape shows, that measure no time (with the load
// tests; security.test.ts has those that do): a dump of the database holds no secret in clear; the
// limit on failed authentications holds under concurrent attempts on two processes, for the
// guessing address only, and keeps one row per pair; and so does the limit of wrong e-mailed codes
// of a wallet.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AUTHENTICATION_LIMIT } from '../../server/tokens/tokens.service.ts';
import { MAX_OTP_ATTEMPTS } from '../../server/wallet-auth/sessions.service.ts';
import { otpProof, walletCalls } from '../support/wallets.ts';
import { call, postgresAdminUrl, startClusterFor, type Cluster } from '../support/cluster.ts';
import { advanceClock, newCredentials, type ServerProcess } from '../support/server-process.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { mutate, ok, tryCall } from './faults-helpers.ts';
import { withDatabase } from '../support/postgres-database.ts';
import { statusCounts } from './faults-load.ts';
import { createEverySecret } from './faults-secrets.ts';
import { cleanupsAfterFile } from '../support/file-cleanups.ts';

const cleanups = cleanupsAfterFile();

const cluster = (count: number, env: NodeJS.ProcessEnv = {}): Promise<Cluster> => startClusterFor(cleanups, postgresAdminUrl(), count, env);
const MAX_FAILURES = AUTHENTICATION_LIMIT.max;

describe('security limits', () => {
  it('a dump of the database holds none of the secrets and identity numbers the service handed out', async () => {
    const { databaseUrl, token, servers } = await cluster(1);
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const { secrets, marker } = await createEverySecret(servers[0] as ServerProcess, token, receiver.url);
    const dump = execFileSync('pg_dump', ['--data-only', databaseUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(dump).toContain(marker); // the dump has the data
    const inClear = Object.entries(secrets).filter(([, value]) => dump.includes(value));
    expect(inClear.map(([name]) => name)).toEqual([]);
  }, 120_000);

  it(`the limit of ${MAX_FAILURES} failed authentications holds under concurrent attempts on two processes, for the guessing address alone`, async () => {
    // Both processes believe the loopback proxy's X-Forwarded-For: each request says its address.
    const cl = await cluster(2, { TRUST_PROXY: 'loopback' });
    const [a, b] = cl.servers as [ServerProcess, ServerProcess];
    const guesser = { 'X-Forwarded-For': '192.0.2.66' };
    const owner = { 'X-Forwarded-For': '198.51.100.7' };
    const report: string[] = [];
    for (let round = 0; round < 3; round++) {
      // A fresh token each round (its own clientId, its own count), used by its owner on both
      // processes first, so both have it cached.
      const created = await ok(a, cl.token, 'POST', '/tokens', { name: `target ${round}`, permissions: ['VIEW'] }, 201);
      const target = { clientId: created.clientId as string, clientSecret: created.clientSecret as string };
      for (const server of [a, b]) expect((await call(server, target, 'GET', '/config', undefined, owner)).status).toBe(200);
      const wrong = { ...target, clientSecret: mutate(target.clientSecret, 20) };
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => tryCall(i % 2 === 0 ? a : b, wrong, 'GET', '/config', undefined, guesser)));
      const counts = statusCounts(replies);
      report.push(JSON.stringify(counts));
      // Every attempt was judged against the shared count: exactly the limit's worth were told "wrong secret".
      expect(counts).toEqual({ 401: MAX_FAILURES, 429: 60 - MAX_FAILURES });
      for (const reply of replies.filter((r) => r.status === 429)) {
        expect(reply.body).toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      }
      // The right secret is refused to the guessing address on both processes, and served to the
      // owner's, from the cache or not, on both.
      for (const server of [a, b]) expect((await call(server, target, 'GET', '/config', undefined, guesser)).status).toBe(429);
      for (const server of [a, b]) expect((await call(server, target, 'GET', '/config', undefined, owner)).status).toBe(200);
      for (const server of [b, a]) expect((await call(server, target, 'GET', '/config', undefined, { 'X-Forwarded-For': `203.0.113.${round}` })).status).toBe(200);
      // The count lives in the database: all its attempts come back in 5 minutes from now.
      const ahead = await withDatabase(cl.databaseUrl, async (db) => (await db.query<{ s: number }>('select extract(epoch from max(recovered_at) - now())::float8 as s from failure_limits')).rows[0]?.s);
      expect(ahead).toBeGreaterThan(4.5 * 60);
    }
    console.log(`60 concurrent wrong attempts per round over two processes from one address: ${report.join(' ')}`);
  }, 120_000);

  it('failure-limit state is one row per (clientId, address) pair counted now, not per failure, and kept no longer than its failures are counted', async () => {
    const cl = await cluster(1, { TRUST_PROXY: 'loopback' });
    const [server] = cl.servers as [ServerProcess];
    const rows = () => withDatabase(cl.databaseUrl, async (db) => Number((await db.query<{ n: string }>('select count(*) as n from failure_limits')).rows[0]?.n));
    const created = await ok(server, cl.token, 'POST', '/tokens', { name: 'counted', permissions: ['VIEW'] }, 201);
    const target = { clientId: created.clientId as string, clientSecret: created.clientSecret as string };
    const send = (credentials: { clientId: string; clientSecret: string }, address: string) => tryCall(server, credentials, 'GET', '/config', undefined, { 'X-Forwarded-For': address });
    // 200 wrong secrets of one clientId from one address, and 3 unknown clientIds from another: four pairs.
    const wrongSecrets = statusCounts(await Promise.all(Array.from({ length: 200 }, (_, i) => send({ ...target, clientSecret: mutate(target.clientSecret, i % 40) }, '192.0.2.10'))));
    expect(wrongSecrets).toEqual({ 401: MAX_FAILURES, 429: 200 - MAX_FAILURES });
    for (let i = 0; i < 3; i++) expect((await send(newCredentials(), '192.0.2.11')).status).toBe(401);
    expect(await rows()).toBe(4);
    // The right secret from 20 addresses (each authenticated by the database once): nothing kept.
    for (let i = 0; i < 20; i++) expect((await send(target, `198.51.100.${i}`)).status).toBe(200);
    expect(await rows()).toBe(4);
    // Once their failures have come back, the next failure counted forgets them, without waiting for the hourly housekeeping.
    await advanceClock(server.origin, 5 * 60_000 + 1_000);
    expect((await send({ ...target, clientSecret: 'sk_sandbox_wrong' }, '203.0.113.5')).status).toBe(401);
    expect(await rows()).toBe(1);
  }, 120_000);

  it(`at most ${MAX_OTP_ATTEMPTS} of 30 wrong e-mailed codes sent at once to two processes are judged against the code, which they then void`, async () => {
    const cl = await cluster(2);
    const [a, b] = cl.servers.map((server) => walletCalls(server.baseUrl, cl.token)) as [ReturnType<typeof walletCalls>, ReturnType<typeof walletCalls>];
    const report: string[] = [];
    for (let round = 0; round < 3; round++) {
      // A new EMAIL_OTP credential is e-mailed its first code at once.
      const { walletId } = await a.newWallet();
      const credential = (await (await a.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane.doe@example.com' })).json()) as { id: string };
      const replies = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const res = await (i % 2 === 0 ? a : b).verify(credential.id, otpProof(String(100_000 + i)));
          return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
        }),
      );
      const judged = replies.filter((r) => r.body.message?.startsWith('The code is not the last one e-mailed') === true).length;
      const unjudged = replies.filter((r) => r.body.message?.startsWith('No code is pending') === true).length;
      report.push(`${judged} judged, ${unjudged} not`);
      expect(replies.every((r) => r.status === 401 || r.status === 400)).toBe(true);
      expect(judged + unjudged).toBe(30);
      expect(judged).toBe(MAX_OTP_ATTEMPTS);
      // The code is void: the right one no longer opens a session, on either process.
      for (const server of [a, b]) expect((await server.verify(credential.id, otpProof())).status).not.toBe(200);
    }
    console.log(`30 wrong e-mailed codes at once over two processes, per round: ${report.join('; ')}`);
  }, 120_000);
});
