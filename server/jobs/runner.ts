// Runs due jobs: leases a batch with FOR UPDATE SKIP LOCKED so several processes never take the
// same job, runs each, and on failure retries it after its kind's delay or fails it for good. A
// process that dies mid-job loses nothing: its lease expires and another run (or process) takes the
// job again. It looks for due jobs when a commit scheduled one due now, at the due time of each job
// this process scheduled for later (or retries), and otherwise once a second for what other
// processes scheduled: an idle server queries the table once a second, not four times, and a job
// runs at its time, not up to a poll later.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Runtime } from '../context/context.ts';
import type { Database } from '../db/schema.ts';
import { collectingContext, runTasks, unitOfWork } from '../context/unit-of-work.ts';
import { addMs, machineNow, PlatformClock } from '../shared/clock.ts';
import type { JobDefinition } from './job-definition.ts';
import { completeJob, failJob, leaseDueJobs, rescheduleJob, retryJobLater, type LeasedJob } from './jobs.repository.ts';

/** Longer than any job may take (a webhook delivery waits 15 s at most). */
export const LEASE_MS = 60_000;

class LeaseLost extends Error {}

export interface RunnerOptions {
  /** How often it looks for jobs it was not told of (other processes'). */
  pollMs?: number;
  batchSize?: number;
}

/** How often a runner looks for jobs other processes scheduled (bench/README.md: an idle server's cost). */
export const POLL_MS = 1_000;

export class JobRunner {
  readonly worker = `worker-${randomUUID()}`;
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private timer: NodeJS.Timeout | undefined;
  /** When `timer` fires, on the machine's clock (a test clock moved meanwhile does not move the timer). */
  private timerAt = Number.POSITIVE_INFINITY;
  /** The due times (on the runtime's clock, in ms) of jobs this process scheduled for later, soonest first. */
  private readonly dueTimes: number[] = [];
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
    this.wake();
  }

  /**
   * Looks for due jobs now, or `inMs` from now (a job just scheduled for then); a call while a pass
   * runs makes another pass follow it.
   */
  wake(inMs = 0): void {
    if (inMs > 0) {
      this.noteDue(inMs);
      return;
    }
    if (!this.started || this.stopping) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    const from = this.runtime.clock.now().getTime();
    this.running = this.runDue()
      .catch((err: unknown) => this.runtime.log.error({ err }, 'job runner pass failed'))
      .then(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.arm(from);
        }
      });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** A job of this process is due `inMs` from now: the runner wakes then. */
  private noteDue(inMs: number): void {
    const at = this.runtime.clock.now().getTime() + inMs;
    let i = this.dueTimes.length;
    while (i > 0 && (this.dueTimes[i - 1] as number) > at) i--;
    this.dueTimes.splice(i, 0, at);
    if (this.running === undefined) this.arm(Number.NEGATIVE_INFINITY);
  }

  /**
   * Sets the timer for the next pass: the soonest due time still ahead (those a pass that started
   * at `passedFrom` could lease are done with), at the latest a poll from now.
   */
  private arm(passedFrom: number): void {
    if (!this.started || this.stopping) return;
    while (this.dueTimes.length > 0 && (this.dueTimes[0] as number) <= passedFrom) this.dueTimes.shift();
    const now = this.runtime.clock.now().getTime();
    const inMs = Math.max(0, Math.min((this.dueTimes[0] ?? Number.POSITIVE_INFINITY) - now, this.options.pollMs ?? POLL_MS));
    const at = machineNow().getTime() + inMs;
    if (this.timer !== undefined && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.wake();
    }, inMs);
    this.timer.unref();
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
      if (definition.recurEveryMs !== undefined) this.noteDue(definition.recurEveryMs);
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
        this.noteDue(definition.recurEveryMs);
      } else if (delay !== undefined && job.attempts < job.max_attempts) {
        log.warn({ err: message, retryInMs: delay }, 'job failed; it will be retried');
        await retryJobLater(this.db, job, addMs(at, delay), message, at);
        this.noteDue(delay);
      } else {
        log.error({ err: message }, 'job failed for good');
        await failJob(this.db, job, message, at);
      }
    }
  }
}
