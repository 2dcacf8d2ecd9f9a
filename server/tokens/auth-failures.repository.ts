// Failed authentications per clientId, counted in the database so the limit holds across every
// server process sharing it. A fixed window: the first failure opens it, it closes WINDOW later.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Adds one failure and returns the window as it now stands. */
export async function recordFailure(db: Db, clientIdHash: string, at: Date, windowMs: number): Promise<{ windowStartedAt: Date; failures: number }> {
  const windowStart = new Date(at.getTime() - windowMs);
  const row = await db
    .insertInto('auth_failures')
    .values({ client_id_hash: clientIdHash, window_started_at: at, failures: 1 })
    .onConflict((oc) =>
      oc.column('client_id_hash').doUpdateSet({
        // An expired window starts again at this failure.
        window_started_at: sql`case when auth_failures.window_started_at <= ${windowStart} then ${at} else auth_failures.window_started_at end`,
        failures: sql`case when auth_failures.window_started_at <= ${windowStart} then 1 else auth_failures.failures + 1 end`,
      }),
    )
    .returning(['window_started_at', 'failures'])
    .executeTakeFirstOrThrow();
  return { windowStartedAt: row.window_started_at, failures: row.failures };
}

/** Forgets windows that have closed, so the table holds only live ones. */
export async function deleteExpiredFailures(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('auth_failures').where('window_started_at', '<', before).execute();
}

/** The failure window counted under `key`, if there is one (open or not). */
export async function findFailureWindow(db: Db, key: string): Promise<{ windowStartedAt: Date; failures: number } | undefined> {
  const row = await db.selectFrom('auth_failures').select(['window_started_at', 'failures']).where('client_id_hash', '=', key).executeTakeFirst();
  return row === undefined ? undefined : { windowStartedAt: row.window_started_at, failures: row.failures };
}
