// Limits on failed attempts that slow a guesser down without locking anyone else out. A limit
// counts per key (what is guessed at, and the client it comes from: shared/source-address.ts):
// `max` failures at once, after which one comes back every `periodMs / max`. While a key has no
// attempt left, its requests are refused with 429 and Retry-After whatever they send (judging them
// would tell a guesser when it guessed right), and for no longer than one attempt takes to come
// back. Other keys, so other clients, are never affected. Spec: the Authentication guide.
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { ServiceContext } from '../context/context.ts';
import { realNow } from '../shared/clock.ts';
import { tooManyRequests } from '../shared/errors.ts';
import { deleteRecovered, findRecovery, recordFailure } from './failure-limits.repository.ts';

export interface FailureLimit {
  /** Prefix of the limit's keys. */
  name: string;
  /** Failures a key may have at once. */
  max: number;
  /** How long all `max` take to come back, one by one. */
  periodMs: number;
  refusal: { code: components['schemas']['Error429']['code']; message: string };
}

/** The key of `parts` under `limit`: hashed, so nothing a caller sent is stored as sent. */
export const limitKey = (limit: FailureLimit, ...parts: string[]): string => `${limit.name}:${createHash('sha256').update(parts.join('\n'), 'utf8').digest('base64url')}`;

const intervalOf = (limit: FailureLimit) => limit.periodMs / limit.max;

/** Recovered keys forgotten with each failure recorded: more than the one it may add. */
const SWEPT_PER_FAILURE = 4;

/**
 * Milliseconds until the key has an attempt again (0: it has one now): never more than one
 * interval, though a failure recorded just after this request read the clock (on another process,
 * or one whose clock is a little ahead) makes it look a moment longer.
 */
function waitMs(limit: FailureLimit, recoveredAt: Date | undefined, at: Date): number {
  if (recoveredAt === undefined) return 0;
  const interval = intervalOf(limit);
  return Math.min(interval, Math.max(0, recoveredAt.getTime() - at.getTime() - (limit.max - 1) * interval));
}

/** 429 while the key whose failures come back at `recoveredAt` has no attempt left at `at`. */
export function refuseWhileExhausted(limit: FailureLimit, recoveredAt: Date | undefined, at: Date): void {
  const wait = waitMs(limit, recoveredAt, at);
  if (wait > 0) throw tooManyRequests(limit.refusal.code, limit.refusal.message, wait / 1000);
}

/** 429 while `key` has no attempt left. */
export async function checkFailureLimit(ctx: ServiceContext, limit: FailureLimit, key: string): Promise<void> {
  refuseWhileExhausted(limit, await findRecovery(ctx.db, key), realNow(ctx.clock));
}

/**
 * Counts a failure of `key` (`ctx.db` outside the failed request's transaction). Concurrent
 * attempts all pass the check before any is counted; only `max` of them fit, and the others get
 * 429 instead of their failure. Resolves to whether the key has attempts left after this one.
 */
export async function countFailure(ctx: ServiceContext, limit: FailureLimit, key: string): Promise<{ exhausted: boolean }> {
  const at = realNow(ctx.clock);
  const interval = intervalOf(limit);
  // Each failure recorded forgets more keys that have recovered than it can add, so the table holds
  // the keys counted now, however many failures were made (migration 0020's index finds them).
  const recovered = await recordFailure(ctx.db, key, at, interval, new Date(at.getTime() + limit.max * interval), SWEPT_PER_FAILURE);
  if (recovered === undefined) {
    refuseWhileExhausted(limit, await findRecovery(ctx.db, key), at);
    // An attempt came back in between: this one is still refused, briefly.
    throw tooManyRequests(limit.refusal.code, limit.refusal.message, 1);
  }
  return { exhausted: waitMs(limit, recovered, at) > 0 };
}

/** Housekeeping: keys whose failures have all come back hold nothing. */
export async function forgetRecoveredLimits(ctx: ServiceContext): Promise<void> {
  await deleteRecovered(ctx.db, realNow(ctx.clock));
}
