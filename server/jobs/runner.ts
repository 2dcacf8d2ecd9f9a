// Runs due jobs: polls the jobs table (and wakes at once when a commit scheduled one), leases a
// batch with FOR UPDATE SKIP LOCKED so several processes never take the same job, runs each, and
// on failure retries it after its kind's delay or fails it for good. A process that dies mid-job
// loses nothing: its lease expires and another run (or process) takes the job again.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Runtime } from '../context/context.ts';
import type { Database } from '../db/schema.ts';
import { collectingContext, runTasks, unitOfWork } from '../context/unit-of-work.ts';
import { addMs, PlatformClock } from '../shared/clock.ts';
import type { JobDefinition } from './job-definition.ts';
import { completeJob, failJob, leaseDueJobs, rescheduleJob, retryJobLater, type LeasedJob } from './jobs.repository.ts';

/** Longer than any job may take (a webhook delivery waits 15 s at most). */
export const LEASE_MS = 60_000;

class LeaseLost extends Error {}

export interface RunnerOptions {
  pollMs?: number;
  batchSize?: number;
}

export class JobRunner {
  readonly worker = `worker-${randomUUID()}`;
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  private stopping = false;

  private readonly runtime: Runtime;
  private readonly db: Kysely<Database>;
  private readonly options: RunnerOptions;

  constructor(runtime: Runtime, db: Kysely<Database>, definitions: readonly JobDefinition<object>[], options: RunnerOptions = {}) {
    this.runtime = runtime;
    this.db = db;
    this.options = options;
    for (const definition of definitions) {
      if (this.definitions.has(definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice`);
      this.definitions.set(definition.kind, definition);
    }
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 250);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due jobs now; a call while a pass runs makes another pass follow it. */
  wake(): void {
    if (!this.started || this.stopping) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.runDue()
      .catch((err: unknown) => this.runtime.log.error({ err }, 'job runner pass failed'))
      .then(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass: runs every job due now, batch after batch. Returns how many ran. `platformId`: only
   * that platform's (advancing its sandbox clock runs them before it answers).
   */
  async runDue(platformId?: string): Promise<number> {
    let total = 0;
    for (;;) {
      const at = this.runtime.clock.now();
      // Only kinds this process knows: during a rolling upgrade an older process leaves newer kinds alone.
      const batchSize = this.options.batchSize ?? 10;
      const jobs = await leaseDueJobs(this.db, at, this.worker, addMs(at, LEASE_MS), batchSize, [...this.definitions.keys()], platformId);
      if (jobs.length === 0) return total;
      await Promise.all(jobs.map((job) => this.runOne(job)));
      total += jobs.length;
      // A short batch took every due job: one committed since then woke the runner for another pass.
      if (this.stopping || jobs.length < batchSize) return total;
    }
  }

  private async runOne(job: LeasedJob): Promise<void> {
    const definition = this.definitions.get(job.kind);
    const log = this.runtime.log.child({ job: job.id, kind: job.kind, attempt: job.attempts });
    // A platform's job runs on its sandbox clock: what it writes, and when it is retried, is in that platform's time.
    const clock = job.platform_id === null ? this.runtime.clock : new PlatformClock(this.runtime.clock, job.platform_id, job.offsetMs);
    const runtime: Runtime = { ...this.runtime, clock };
    try {
      if (definition === undefined) throw new Error(`no job kind ${job.kind} in this server`);
      const finish = (db: Parameters<typeof completeJob>[0], at: Date) =>
        definition.recurEveryMs === undefined ? completeJob(db, job, at) : rescheduleJob(db, job, addMs(at, definition.recurEveryMs), at);
      if (definition.transactional) {
        await unitOfWork(runtime, this.db, async (ctx) => {
          await definition.run({ ...ctx, attempt: job.attempts, maxAttempts: job.max_attempts }, job.payload);
          // Only the lease holder may finish the job; otherwise its effects roll back with it.
          if (!(await finish(ctx.db, clock.now()))) throw new LeaseLost();
        });
      } else {
        const collected = collectingContext(runtime, this.db);
        await definition.run({ ...collected.ctx, attempt: job.attempts, maxAttempts: job.max_attempts }, job.payload);
        await finish(this.db, clock.now());
        await runTasks(runtime, collected.tasks);
      }
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.warn('job lease was taken over by another run; its work here was rolled back');
        return;
      }
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
      const at = clock.now();
      const delay = definition?.retryDelaysMs[job.attempts - 1];
      if (definition?.recurEveryMs !== undefined) {
        log.warn({ err: message }, 'recurring job failed; it runs again at its next time');
        await rescheduleJob(this.db, job, addMs(at, definition.recurEveryMs), at);
      } else if (delay !== undefined && job.attempts < job.max_attempts) {
        log.warn({ err: message, retryInMs: delay }, 'job failed; it will be retried');
        await retryJobLater(this.db, job, addMs(at, delay), message, at);
      } else {
        log.error({ err: message }, 'job failed for good');
        await failJob(this.db, job, message, at);
      }
    }
  }
}
