// A kind of background job: what it does and how it is retried. Areas define their jobs in
// `<area>.jobs.ts`; server/job-kinds.ts lists them all for the runner.
import type { ServiceContext } from '../context/context.ts';

export interface JobContext extends ServiceContext {
  /** 1 for the first run of the job, 2 for its first retry, ... */
  attempt: number;
  maxAttempts: number;
}

export interface JobDefinition<P extends object> {
  kind: string;
  /**
   * true: the job runs in its own database transaction, which also marks it done, so its effects
   * happen exactly once (a job whose lease was lost rolls back). false: for jobs that wait on the
   * network, which must never hold a transaction open; they run at least once.
   */
  transactional: boolean;
  /** The delay before each retry after a failure; the job fails for good after the last one. */
  retryDelaysMs: readonly number[];
  /** Instead of ending, a successful run schedules the next one this long after (housekeeping). */
  recurEveryMs?: number;
  run(ctx: JobContext, payload: P): Promise<void>;
}

export const defineJob = <P extends object>(definition: JobDefinition<P>): JobDefinition<P> => definition;
