// A sandbox clock per platform, as Stripe's test clocks are per object: reading it says what "now"
// is for the platform; advancing it (never back) runs, in due order and before it answers, every job
// of the platform that came due meanwhile (scheduled payment outcomes, quote expiries, webhook
// deliveries and their retries), each on the clock set to its due time, so what it writes is dated
// as if the time had passed. Other platforms' clocks do not move; limits on guessing and failed
// attempts read real time (shared/clock.ts: realNow), so advancing never refills them.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { iso, PlatformClock, realClockOf } from '../shared/clock.ts';
import { invalidField } from '../shared/errors.ts';
import { toSandboxClock } from './clock.mapper.ts';
import { claimAdvance, countLeasedDue, findOffsetMs, nextJobAfter, raiseOffset, releaseAdvance, renewAdvance } from './clock.repository.ts';

type SandboxClock = components['schemas']['SandboxClock'];
type AdvanceRequest = components['schemas']['SandboxClockAdvanceRequest'];

/** The furthest one advance may move a clock: a year (366 days), more than any outcome or retry takes. */
export const MAX_ADVANCE_MS = 366 * 24 * 60 * 60_000;
/** How long an advance waits for due jobs another process is running before it answers anyway. */
const OTHERS_WAIT_MS = 15_000;
/** How long an advance holds the platform's clock from one step to the next; another advance waits its turn meanwhile. */
const ADVANCE_LEASE_MS = 60_000;
/** A bound on the steps of one advance (each runs the jobs due at one time), against a job that reschedules itself for ever. */
const MAX_STEPS = 10_000;

/** The clock of `platformId`, read now from the database (several processes share it). */
export async function platformClock(ctx: Pick<ServiceContext, 'db' | 'clock'>, platformId: string): Promise<PlatformClock> {
  return new PlatformClock(realClockOf(ctx.clock), platformId, await findOffsetMs(ctx.db, platformId));
}

export async function readSandboxClock(ctx: PlatformContext): Promise<SandboxClock> {
  return toSandboxClock(await platformClock(ctx, ctx.platformId));
}

/** The instant the request asks for: 400 when it is not after the platform's now, or further than MAX_ADVANCE_MS. */
function targetOf(body: AdvanceRequest, now: Date): number {
  const target = 'seconds' in body ? now.getTime() + body.seconds * 1000 : Date.parse(body.to);
  const field = 'seconds' in body ? '/seconds' : '/to';
  if (target <= now.getTime()) throw invalidField(field, `The clock only moves forward: give an instant after the platform's now (${iso(now)}).`, 'exclusiveMinimum');
  if (target - now.getTime() > MAX_ADVANCE_MS) throw invalidField(field, `One advance moves the clock by 366 days at most (up to ${iso(new Date(now.getTime() + MAX_ADVANCE_MS))}).`, 'maximum');
  return target;
}

/** Runs what is due on the platform's clock now, and waits (a while) for what another process is running. */
async function runDue(ctx: PlatformContext): Promise<void> {
  await ctx.runDueJobs(ctx.platformId);
  const real = realClockOf(ctx.clock);
  const deadline = real.now().getTime() + OTHERS_WAIT_MS;
  for (;;) {
    const clock = await platformClock(ctx, ctx.platformId);
    if ((await countLeasedDue(ctx.db, ctx.platformId, clock.now(), real.now())) === 0 || real.now().getTime() > deadline) return;
    await new Promise((r) => setTimeout(r, 50));
    await ctx.runDueJobs(ctx.platformId);
  }
}

/**
 * Moves the platform's clock forward to the instant asked, one due job's time after the other:
 * by `seconds`, its offset grows by exactly that much; `to`, it reads that instant as it answers.
 * `ctx.db` must be the pool, not a transaction: each step commits, and jobs that wait on the
 * network (webhook deliveries) run outside any transaction.
 */
export async function advanceSandboxClock(ctx: PlatformContext, body: AdvanceRequest): Promise<SandboxClock> {
  const real = realClockOf(ctx.clock);
  const lease = () => new Date(real.now().getTime() + ADVANCE_LEASE_MS);
  // One advance of a platform at a time (several processes share its clock): two at once would both
  // start from the same offset and one of their moves would be lost.
  while (!(await claimAdvance(ctx.db, ctx.platformId, real.now(), lease()))) await new Promise((r) => setTimeout(r, 50));
  try {
    return await advanceClaimed(ctx, body);
  } finally {
    await releaseAdvance(ctx.db, ctx.platformId);
  }
}

async function advanceClaimed(ctx: PlatformContext, body: AdvanceRequest): Promise<SandboxClock> {
  const real = realClockOf(ctx.clock);
  const start = await platformClock(ctx, ctx.platformId);
  const target = targetOf(body, start.now());
  /** The final offset: fixed by `seconds`; for `to`, whatever makes the clock read `to` now. */
  const finalOffset = () => ('seconds' in body ? start.offsetMs + body.seconds * 1000 : target - real.now().getTime());
  // Whatever was due already (the background runner polls) runs first, at its own time.
  await runDue(ctx);
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = await nextJobAfter(ctx.db, ctx.platformId, (await platformClock(ctx, ctx.platformId)).now());
    // Due at or before the instant asked (for `seconds`, the instant the final offset gives now).
    if (next === undefined || next.getTime() > real.now().getTime() + finalOffset()) break;
    await renewAdvance(ctx.db, ctx.platformId, new Date(real.now().getTime() + ADVANCE_LEASE_MS));
    await raiseOffset(ctx.db, ctx.platformId, next.getTime() - real.now().getTime(), real.now());
    await runDue(ctx);
  }
  await raiseOffset(ctx.db, ctx.platformId, finalOffset(), real.now());
  await runDue(ctx);
  return readSandboxClock(ctx);
}
