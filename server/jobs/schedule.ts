// Scheduling a job: always in the caller's transaction, so the job exists only if the change that
// caused it commits. The runner is woken once that commit has happened, when the job is due then.
import type { ServiceContext } from '../context.ts';
import { newId } from '../shared/ids.ts';
import type { JobDefinition } from './job-definition.ts';
import { insertJob, type NewJob } from './jobs.repository.ts';

export interface ScheduleOptions {
  maxAttempts?: number;
  id?: string;
}

/**
 * A job to schedule, for a repository that writes it with the row that causes it (in one
 * statement); `jobScheduled` must follow its write.
 */
export function newJob<P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, runAt: Date, payload: P, options: ScheduleOptions = {}): NewJob {
  return {
    id: options.id ?? newId('Job'),
    kind: definition.kind,
    payload,
    runAt,
    maxAttempts: options.maxAttempts ?? definition.retryDelaysMs.length + 1,
    at: ctx.clock.now(),
  };
}

/** After a job's write: a job due now wakes the runner at the commit; a later one is found by its poll. */
export function jobScheduled(ctx: ServiceContext, job: NewJob): void {
  if (job.runAt.getTime() <= ctx.clock.now().getTime()) ctx.afterCommit(() => ctx.wakeJobs());
}

export async function scheduleJob<P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, runAt: Date, payload: P, options: ScheduleOptions = {}): Promise<void> {
  const job = newJob(ctx, definition, runAt, payload, options);
  await insertJob(ctx.db, job);
  jobScheduled(ctx, job);
}

/** A recurring job has one row whatever the number of processes: its id is fixed. */
export const scheduleRecurringJob = <P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, payload: P): Promise<void> =>
  scheduleJob(ctx, definition, ctx.clock.now(), payload, { id: `recurring:${definition.kind}` });
