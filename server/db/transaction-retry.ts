// A transaction PostgreSQL gave up on for reasons that are not the request's runs again: a deadlock
// (40P01) or a serialization failure (40001) rolls the whole transaction back, so nothing of it
// remains, and the same work may well succeed next time. Locks are taken in one order where we
// know the orders (agents.repository.ts, the ledger); this is for the orders we did not foresee.
// Statements made stale by a schema change run again too (againIfStalePlan).
import { setTimeout as sleep } from 'node:timers/promises';
import { againIfStalePlan } from './prepared-statements.ts';

/** Attempts after the first: enough for a burst of contention, few enough to answer in time. */
export const TRANSACTION_RETRIES = 4;
const RETRYABLE = new Set(['40001', '40P01']);

/** Whether `err` is a deadlock or a serialization failure: the transaction was rolled back and may run again. */
export const isRetryableConflict = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));

/**
 * Runs `attempt` (a whole transaction, with nothing done outside it that a second run would
 * repeat) again after a deadlock or a serialization failure, up to TRANSACTION_RETRIES times, each
 * after a short random pause so the transactions that met do not meet again in step.
 */
export async function retryTransaction<T>(attempt: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await againIfStalePlan(attempt);
    } catch (err) {
      if (retry >= TRANSACTION_RETRIES || !isRetryableConflict(err)) throw err;
      await sleep(Math.ceil(Math.random() * 10 * 2 ** retry));
    }
  }
}
