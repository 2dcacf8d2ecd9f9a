// The in-flight Idempotency-Key rule, for any keyed request: a duplicate sent while the first is
// still running (held by the server's x-test-delay-ms control) is 409 IDEMPOTENCY_KEY_IN_USE, and
// the first still succeeds. Needs PostgreSQL: PGlite serialises, so the duplicate would wait.
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { credentials, errorOf, target } from './api.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { operations } from './spec.ts';

/**
 * Call inside a `describe`: another server process on the target's PostgreSQL database (same
 * master key and token), for the in-flight requests. On the shared process, while the first
 * request held its transaction open, the requests of the other files running at the same time
 * queued behind it for the process's pooled connections, and the duplicate with them: it was
 * answered only once the first had finished (a replay, not the 409). Started on PostgreSQL only.
 */
export function inFlightServer(): { baseUrl: string } {
  const server = { baseUrl: '' };
  let second: ServerProcess | undefined;
  beforeAll(async () => {
    if (target !== 'postgres') return;
    second = await startServer({ DATABASE_URL: inject('databaseUrl'), PAYMENTS_MASTER_KEY: inject('masterKey'), PAYMENTS_CLIENT_ID: credentials.clientId, PAYMENTS_CLIENT_SECRET: credentials.clientSecret });
    server.baseUrl = second.baseUrl;
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
  });
  return server;
}

/**
 * `send` sends the same keyed request (Idempotency-Key `key`) each time, with extra headers. The
 * duplicate goes once the first holds the key, not after a fixed pause: on a busy machine the
 * first took longer than the pause to get there, and the duplicate overtook it. Once the first
 * has answered, the key replays its answer byte for byte: the 409 left nothing behind.
 */
export async function expectInFlightConflict(send: (headers?: Record<string, string>) => Promise<Response>, key: string): Promise<void> {
  const slow = send({ 'x-test-delay-ms': '1500' });
  await keyHeld(key);
  const duplicate = await send();
  expect(duplicate.status).toBe(409);
  expect(await errorOf(duplicate)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
  const first = await slow;
  expect(first.status).toBeLessThan(300);
  const replay = await send();
  expect(replay.status).toBe(first.status);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(await replay.text()).toBe(await first.text());
}

const operationIds = operations.map((o) => o.operation.operationId);

/**
 * Waits until a transaction on `databaseUrl` (the target's database unless given) holds the
 * advisory lock the server takes for an Idempotency-Key (server/idempotency/idempotency.repository.ts
 * names it after the credential, the operation and the key), whichever credential and operation
 * it was sent with.
 */
export async function keyHeld(key: string, databaseUrl: string = inject('databaseUrl'), timeoutMs = 15_000): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rowCount } = await db.query(
        `with wanted as (
           select hashtextextended('idempotency' || chr(1) || credential.id || chr(1) || operation || chr(1) || $1, 0) as lock
           from (select id from api_tokens union all select id from agents) as credential, unnest($2::text[]) as operation)
         select 1 from pg_locks, wanted
         where locktype = 'advisory' and granted and objsubid = 1
           and database = (select oid from pg_database where datname = current_database())
           and classid = ((lock >> 32) & 4294967295)::oid and objid = (lock & 4294967295)::oid
         limit 1`,
        [key, operationIds],
      );
      if (rowCount !== null && rowCount > 0) return;
      if (Date.now() > deadline) throw new Error(`no request held the Idempotency-Key ${key} within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await db.end();
  }
}
