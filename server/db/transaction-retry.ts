// A transaction PostgreSQL gave up on for reasons that are not the request's runs again: a deadlock
// (40P01) or a serialization failure (40001) rolls the whole transaction back, so nothing of it
// remains, and the same work may well succeed next time. Locks are taken in one order where we
// know the orders (agents.repository.ts, the ledger); this is for the orders we did not foresee.
// Statements made stale by a schema change run again too (againIfStalePlan), and so does a
// transaction whose connection was lost before it sent its COMMIT (lost-connections.ts): nothing of
// it can have committed, and the pool gives the next attempt a fresh connection.
import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionLoss, lostBeforeCommit } from './lost-connections.ts';
import { againIfStalePlan } from './prepared-statements.ts';

/** Attempts after the first: enough for a burst of contention, few enough to answer in time. */
export const TRANSACTION_RETRIES = 4;
const RETRYABLE = new Set(['40001', '40P01']);

/** Whether `err` is a deadlock or a serialization failure: the transaction was rolled back and may run again. */
export const isRetryableConflict = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));

/**
 * Connections lost under one transaction it may run again after: PostgreSQL can end every
 * connection of the pool (10) at once, and the pool may hand out several of them before it hears.
 */
const LOST_CONNECTION_RETRIES = 10;

/**
 * Runs `attempt` (a whole transaction, with nothing done outside it that a second run would
 * repeat) again after a deadlock or a serialization failure, up to TRANSACTION_RETRIES times, each
 * after a short random pause so the transactions that met do not meet again in step; and after a
 * connection lost before its COMMIT, on another connection, up to LOST_CONNECTION_RETRIES times.
 */
export async function retryTransaction<T>(attempt: () => Promise<T>): Promise<T> {
  for (let conflicts = 0, lost = 0; ; ) {
    try {
      return await againIfStalePlan(attempt);
    } catch (err) {
      if (lostBeforeCommit(err) && lost < LOST_CONNECTION_RETRIES) {
        lost++;
        // A moment for the ended session to let go of its locks (an Idempotency-Key's among them).
        await sleep(10 + Math.ceil(Math.random() * 40));
        continue;
      }
      if (conflicts >= TRANSACTION_RETRIES || !isRetryableConflict(err)) throw err;
      await sleep(Math.ceil(Math.random() * 10 * 2 ** conflicts));
      conflicts++;
    }
  }
}

/**
 * Runs a read made outside any transaction again when its connection was lost (up to
 * LOST_CONNECTION_RETRIES times): it changed nothing, and the pool gives the next run another
 * connection.
 */
export async function retryRead<T>(read: () => Promise<T>): Promise<T> {
  for (let lost = 0; ; lost++) {
    try {
      return await read();
    } catch (err) {
      if (lost >= LOST_CONNECTION_RETRIES || !isConnectionLoss(err)) throw err;
    }
  }
}
