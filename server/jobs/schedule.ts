// Scheduling a job: always in the caller's transaction, so the job exists only if the change that
// caused it commits. The runner is woken once that commit has happened, when the job is due then.
import type { ServiceContext } from '../context/context.ts';
import { clockPlatformOf } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { JobDefinition } from './job-definition.ts';
import { insertJob, type NewJob } from './jobs.repository.ts';

export interface ScheduleOptions {
  maxAttempts?: number;
  id?: string;
}

/**
 * A new job, not yet written: `scheduleWith` writes it. `runAt` is on the caller's clock, and the
 * job follows that clock: a platform's sandbox clock, advanced, brings it forward.
 */
export function newJob<P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, runAt: Date, payload: P, options: ScheduleOptions = {}): NewJob {
  return {
    id: options.id ?? newId('Job'),
    kind: definition.kind,
    payload,
    runAt,
    maxAttempts: options.maxAttempts ?? definition.retryDelaysMs.length + 1,
    at: ctx.clock.now(),
    platformId: clockPlatformOf(ctx.clock),
  };
}

/**
 * Schedules `job` through `write`: a repository function that writes it, alone or with the row
 * that causes it (in one statement). At the commit, the runner is told when it is due: a job due
 * now runs at once, a later one at its time.
 */
export async function scheduleWith<T>(ctx: ServiceContext, job: NewJob, write: (job: NewJob) => Promise<T>): Promise<T> {
  const written = await write(job);
  const inMs = job.runAt.getTime() - ctx.clock.now().getTime();
  ctx.afterCommit(() => ctx.wakeJobs(Math.max(0, inMs)));
  return written;
}

export async function scheduleJob<P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, runAt: Date, payload: P, options: ScheduleOptions = {}): Promise<void> {
  await scheduleWith(ctx, newJob(ctx, definition, runAt, payload, options), (job) => insertJob(ctx.db, job));
}

/** A recurring job has one row whatever the number of processes: its id is fixed. */
export const scheduleRecurringJob = <P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, payload: P): Promise<void> =>
  scheduleJob(ctx, definition, ctx.clock.now(), payload, { id: `recurring:${definition.kind}` });
