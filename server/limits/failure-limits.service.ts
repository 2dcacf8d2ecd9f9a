// Limits on failed attempts that slow a guesser down without locking anyone else out. A limit
// counts per key (what is guessed at, and the client it comes from: shared/source-address.ts):
// `max` failures at once, after which one comes back every `periodMs / max`. While a key has no
// attempt left, its requests are refused with 429 and Retry-After whatever they send (judging them
// would tell a guesser when it guessed right), and for no longer than one attempt takes to come
// back. Other keys, so other clients, are never affected. Attempts on one key are judged one at a
// time (judgeInTurn), so a burst of them gets no more judged than the limit allows. Spec: the
// Authentication guide.
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { ServiceContext } from '../context/context.ts';
import type { Db } from '../db/database.ts';
import { realNow } from '../shared/clock.ts';
import { tooManyRequests } from '../shared/errors.ts';
import { runTasks } from '../context/unit-of-work.ts';
import { deleteRecovered, findRecovery, recordFailure, takeTurn } from './failure-limits.repository.ts';

type Task = () => void | Promise<void>;

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

/** One attempt judged in its key's turn (judgeInTurn). */
export interface Guess<C extends ServiceContext, T> {
  /** Judges the attempt on `ctx.db`, the turn's transaction; what it wrote is undone when it throws. */
  judge(ctx: C): Promise<T>;
  /** Whether what `judge` threw is a failure the limit counts (a wrong secret, an unknown code). */
  isFailure(err: unknown): boolean;
  /** `judge` writes nothing: it needs no savepoint to undo. */
  writesNothing?: boolean;
  /** Runs in the turn's transaction when the failure counted took the key's last attempt. */
  exhausted?(ctx: C): Promise<void>;
}

/**
 * Checks the limit, judges the attempt and counts its failure as one step, in `key`'s turn
 * (failure-limits.repository.ts takeTurn): attempts on one key, on every process, take their
 * turns one after another. However many arrive at once, no more than the limit's failures are
 * judged, and an attempt that comes after them is refused with 429 even when it is right (a
 * burst has no more guesses than the limit allows). A right attempt counts nothing, so a burst of
 * right ones is served. `ctx.db` must be the pool: a failure is committed whatever the request's
 * fate, in the turn's own transaction, and `judge`'s after-commit tasks run only when it succeeded.
 */
export async function judgeInTurn<C extends ServiceContext, T>(ctx: C, limit: FailureLimit, key: string, guess: Guess<C, T>): Promise<T> {
  const interval = intervalOf(limit);
  let tasks: Task[] = [];
  // Refused at once while the key has no attempt left, not after waiting for a turn: a guesser's
  // flood then holds no connection waiting.
  const refuseNowIfExhausted = async (db: Db) => refuseWhileExhausted(limit, await findRecovery(db, key), realNow(ctx.clock));
  const outcome = await takeTurn(ctx.db, key, refuseNowIfExhausted, async (turn): Promise<{ value: T } | { failure: unknown }> => {
    const at = realNow(ctx.clock);
    refuseWhileExhausted(limit, await findRecovery(turn.db, key), at);
    const judged: Task[] = [];
    try {
      const judge = (db: Db) => guess.judge({ ...ctx, db, afterCommit: (task) => void judged.push(task) });
      const value = await (guess.writesNothing === true ? judge(turn.db) : turn.undoable(judge));
      if (guess.writesNothing === true) turn.wroteNothing();
      tasks = judged;
      return { value };
    } catch (err) {
      if (!guess.isFailure(err)) throw err;
      // Each failure recorded forgets more keys that have recovered than it can add, so the table
      // holds the keys counted now, however many failures were made (migration 0020's index finds them).
      const recovered = await recordFailure(turn.db, key, at, interval, new Date(at.getTime() + limit.max * interval), SWEPT_PER_FAILURE);
      // The check above, on the same clock reading and in the same turn, left room for it; were it
      // otherwise (a rounding), the attempt is refused rather than judged.
      if (recovered === undefined) throw tooManyRequests(limit.refusal.code, limit.refusal.message, 1);
      const counted: Task[] = [];
      if (waitMs(limit, recovered, at) > 0) await guess.exhausted?.({ ...ctx, db: turn.db, afterCommit: (task) => void counted.push(task) });
      tasks = counted;
      return { failure: err };
    }
  });
  await runTasks(ctx, tasks);
  if ('failure' in outcome) throw outcome.failure;
  return outcome.value;
}

/** Housekeeping: keys whose failures have all come back hold nothing. */
export async function forgetRecoveredLimits(ctx: ServiceContext): Promise<void> {
  await deleteRecovered(ctx.db, realNow(ctx.clock));
}
