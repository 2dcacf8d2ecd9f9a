// Failed attempts per key, in the database so every server process shares them. One timestamp per
// key: when its failures will all have come back (the "theoretical arrival time" of a generic cell
// rate algorithm). Each failure moves it one interval later, from now at the earliest.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { retryRead, retryTransaction } from '../db/transaction-retry.ts';

/**
 * Counts one failure for `key` at `at` unless that would take it past `latest` (when its failures
 * would come back): the new recovery time, or undefined when the failure did not fit. Atomic, so
 * concurrent failures never fit more than the limit allows. It forgets `sweep` keys that have
 * recovered by `at` too, skipping any another writer holds. One transaction, run again when its
 * connection is lost before it commits (db/transaction-retry.ts).
 */
export async function recordFailure(db: Db, key: string, at: Date, intervalMs: number, latest: Date, sweep: number): Promise<Date | undefined> {
  const next = sql<Date>`greatest(failure_limits.recovered_at, ${at}::timestamptz) + ${intervalMs}::double precision * interval '1 millisecond'`;
  return retryTransaction(() =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('failure_limits')
        .values({ key, recovered_at: new Date(at.getTime() + intervalMs) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ recovered_at: next }).where(next, '<=', latest))
        .returning('recovered_at')
        .executeTakeFirst();
      const recovered = trx.selectFrom('failure_limits').select('key').where('recovered_at', '<', at).orderBy('recovered_at').limit(sweep).forUpdate().skipLocked();
      await trx.deleteFrom('failure_limits').where('key', 'in', recovered).execute();
      return row?.recovered_at;
    }),
  );
}

/** When the failures counted for `key` will all have come back; undefined when none are counted. */
export async function findRecovery(db: Db, key: string): Promise<Date | undefined> {
  return (await retryRead(() => db.selectFrom('failure_limits').select('recovered_at').where('key', '=', key).executeTakeFirst()))?.recovered_at;
}

/** Forgets keys whose failures have all come back. */
export async function deleteRecovered(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('failure_limits').where('recovered_at', '<', before).execute();
}
