// Scheduling a job: always in the caller's transaction, so the job exists only if the change that
// caused it commits. The runner is woken once that commit has happened.
import type { ServiceContext } from '../context.ts';
import { newId } from '../shared/ids.ts';
import type { JobDefinition } from './job-definition.ts';
import { insertJob } from './jobs.repository.ts';

export async function scheduleJob<P extends object>(
  ctx: ServiceContext,
  definition: JobDefinition<P>,
  runAt: Date,
  payload: P,
  options: { maxAttempts?: number; id?: string } = {},
): Promise<void> {
  await insertJob(ctx.db, {
    id: options.id ?? newId('Job'),
    kind: definition.kind,
    payload,
    runAt,
    maxAttempts: options.maxAttempts ?? definition.retryDelaysMs.length + 1,
    at: ctx.clock.now(),
  });
  ctx.afterCommit(() => ctx.wakeJobs());
}

/** A recurring job has one row whatever the number of processes: its id is fixed. */
export const scheduleRecurringJob = <P extends object>(ctx: ServiceContext, definition: JobDefinition<P>, payload: P): Promise<void> =>
  scheduleJob(ctx, definition, ctx.clock.now(), payload, { id: `recurring:${definition.kind}` });
