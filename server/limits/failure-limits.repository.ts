// Failed attempts per key, in the database so every server process shares them. One timestamp per
// key: when its failures will all have come back (the "theoretical arrival time" of a generic cell
// rate algorithm). Each failure moves it one interval later, from now at the earliest.
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { isConnectionLoss, rememberLossBeforeCommit } from '../db/lost-connections.ts';
import { retryTransaction } from '../db/transaction-retry.ts';

/**
 * Counts one failure for `key` at `at` unless that would take it past `latest` (when its failures
 * would come back): the new recovery time, or undefined when the failure did not fit. Atomic, so
 * concurrent failures never fit more than the limit allows. It forgets `sweep` keys that have
 * recovered by `at` too, skipping any another writer holds. In `trx`, a transaction of the caller's.
 */
export async function recordFailure(trx: Db, key: string, at: Date, intervalMs: number, latest: Date, sweep: number): Promise<Date | undefined> {
  const next = sql<Date>`greatest(failure_limits.recovered_at, ${at}::timestamptz) + ${intervalMs}::double precision * interval '1 millisecond'`;
  const row = await trx
    .insertInto('failure_limits')
    .values({ key, recovered_at: new Date(at.getTime() + intervalMs) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ recovered_at: next }).where(next, '<=', latest))
    .returning('recovered_at')
    .executeTakeFirst();
  const recovered = trx.selectFrom('failure_limits').select('key').where('recovered_at', '<', at).orderBy('recovered_at').limit(sweep).forUpdate().skipLocked();
  await trx.deleteFrom('failure_limits').where('key', 'in', recovered).execute();
  return row?.recovered_at;
}

/** A transaction holding one key's turn (takeTurn). */
export interface Turn {
  /** The transaction. */
  db: Db;
  /** Runs `attempt` on the transaction; when it throws, what it wrote is undone and the transaction goes on. */
  undoable<T>(attempt: (db: Db) => Promise<T>): Promise<T>;
  /** Says the turn wrote nothing (a right attempt judged by reading): its COMMIT lost with its connection loses nothing. */
  wroteNothing(): void;
}

/**
 * Runs `work` in one transaction that holds `key`'s turn: a transaction-scoped advisory lock
 * (released at commit, so it holds behind a transaction-mode pooler too), so attempts on one key
 * from every process run one after another, each seeing what the one before committed, in about
 * the order they came (each asks for the lock first thing on its connection, and PostgreSQL grants
 * it in the order asked). When another holds the turn, `whileBusy` runs before waiting for it:
 * it may refuse at once by throwing. Committed when `work` resolves, rolled back when either
 * throws; run again after a deadlock or a connection lost before the commit
 * (db/transaction-retry.ts).
 */
export async function takeTurn<T>(db: Db, key: string, whileBusy: (trx: Db) => Promise<void>, work: (turn: Turn) => Promise<T>): Promise<T> {
  if (db.isTransaction) throw new Error('takeTurn: needs the pool, not a transaction');
  const pool = db as Kysely<Database>;
  const lockId = sql`hashtextextended(${`turn\u0001${key}`}, 0)`;
  return retryTransaction(async () => {
    let committing = false;
    // Lost before its COMMIT, however it was lost (taking a connection from the pool included),
    // the turn cannot have committed: it runs again on another connection, as a read does.
    const markIfLostBeforeCommit = (err: unknown): never => {
      if (!committing && isConnectionLoss(err)) rememberLossBeforeCommit(err);
      throw err;
    };
    const trx = await pool.startTransaction().execute().catch(markIfLostBeforeCommit);
    let readOnly = false;
    try {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${lockId}) as locked`.execute(trx);
      if (rows[0]?.locked !== true) {
        await whileBusy(trx);
        await sql`select pg_advisory_xact_lock(${lockId})`.execute(trx);
      }
      const result = await work({
        db: trx,
        wroteNothing: () => {
          readOnly = true;
        },
        undoable: async (attempt) => {
          const savepoint = await trx.savepoint('attempt').execute();
          try {
            return await attempt(savepoint);
          } catch (err) {
            await savepoint.rollbackToSavepoint('attempt').execute();
            throw err;
          }
        },
      });
      committing = true;
      try {
        await trx.commit().execute();
      } catch (err) {
        // A read-only turn's answer stands whether or not its COMMIT arrived (the lock went with
        // the session); one that wrote may have committed, and goes up as any lost COMMIT does.
        if (!(readOnly && isConnectionLoss(err))) throw err;
      }
      return result;
    } catch (err) {
      return markIfLostBeforeCommit(err);
    } finally {
      // Whatever went wrong first is what the caller hears about, not a failed rollback.
      if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute().catch(() => {});
    }
  });
}

/** When the failures counted for `key` will all have come back; undefined when none are counted. In a turn's transaction. */
export async function findRecovery(trx: Db, key: string): Promise<Date | undefined> {
  return (await trx.selectFrom('failure_limits').select('recovered_at').where('key', '=', key).executeTakeFirst())?.recovered_at;
}

/** Forgets keys whose failures have all come back. */
export async function deleteRecovered(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('failure_limits').where('recovered_at', '<', before).execute();
}
