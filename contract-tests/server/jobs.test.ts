// The durable job runner, driven directly: a job exists only if the transaction that scheduled it
// commits; it runs once, is retried after its delay and fails for good after its last attempt; a
// running runner wakes at the due time of each job its process scheduled, not at its next poll; a
// job whose process died mid-run is taken over when its lease expires; and on PostgreSQL two
// runners (two pools, as two processes would have) never run one job twice.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Runtime } from '../../server/context/context.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { unitOfWork } from '../../server/context/unit-of-work.ts';
import { defineJob } from '../../server/jobs/job-definition.ts';
import { leaseDueJobs } from '../../server/jobs/jobs.repository.ts';
import { JobRunner, LEASE_MS } from '../../server/jobs/runner.ts';
import { scheduleJob, scheduleRecurringJob } from '../../server/jobs/schedule.ts';
import { conditionalBalanceWriter } from '../../server/ledger/ledger.repository.ts';
import { addMs, ShiftableClock } from '../../server/shared/clock.ts';
import { Keyring } from '../../server/shared/keyring.ts';
import { target } from '../support/api.ts';
import { adminUrlOf, createDatabase } from '../support/postgres-database.ts';
import { LocalCredentialCache } from '../../server/tokens/credential-cache.ts';
import { sandboxProofs } from '../../server/wallet-auth/sandbox-proofs.ts';

const runsOn = target === 'pglite' || target === 'postgres';
let handle: DatabaseHandle;
let testDatabaseUrl: string | undefined;
let dropDatabase = async () => {};

/** Its own database: the target server's runner must not meet this file's job kinds. */
beforeAll(async () => {
  if (!runsOn) return;
  if (target === 'postgres') {
    const database = await createDatabase(adminUrlOf(inject('databaseUrl')), 'jobs');
    testDatabaseUrl = database.url;
    dropDatabase = database.drop;
  }
  handle = await openDatabase({ databaseUrl: testDatabaseUrl, pgliteDataDir: 'memory://' }, pino({ level: 'silent' }));
  await migrateToLatest(handle.db);
  await sql`create table job_test_effects (key text not null, worker text not null)`.execute(handle.db);
}, 60_000);
afterAll(async () => {
  if (!runsOn) return;
  await handle.db.destroy();
  await dropDatabase();
});

const runtime = (clock = new ShiftableClock()): Runtime & { clock: ShiftableClock } => ({
  clock,
  keys: new Keyring(Keyring.generateMasterKey()),
  log: pino({ level: 'silent' }),
  settings: { allowPrivateWebhookTargets: true },
  balanceWriter: conditionalBalanceWriter,
  walletProofs: sandboxProofs,
  credentials: new LocalCredentialCache(),
  wakeJobs: () => {},
  runDueJobs: () => Promise.resolve(0),
});

const effects = async (key: string) => (await sql<{ worker: string }>`select worker from job_test_effects where key = ${key}`.execute(handle.db)).rows;

/** A transactional job that records one effect per run; `fail` makes its first attempts throw. */
const failures = new Map<string, number>();
const recordJob = defineJob<{ key: string; fail?: number }>({
  kind: 'test.record',
  transactional: true,
  retryDelaysMs: [1_000, 60_000],
  async run(ctx, { key, fail = 0 }) {
    const failed = failures.get(key) ?? 0;
    if (failed < fail) {
      failures.set(key, failed + 1);
      throw new Error(`failure ${failed + 1} of ${key}`);
    }
    await sql`insert into job_test_effects (key, worker) values (${key}, ${String(ctx.attempt)})`.execute(ctx.db);
  },
});

const unique = () => randomBytes(6).toString('hex');
const jobRow = async (key: string) =>
  (await sql<{ status: string; attempts: number; last_error: string | null }>`select status, attempts, last_error from jobs where payload->>'key' = ${key}`.execute(handle.db)).rows[0];

describe.skipIf(!runsOn)('job runner', () => {
  it('a job exists only if the transaction that scheduled it commits', async () => {
    const rt = runtime();
    const kept = unique();
    const dropped = unique();
    await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, recordJob, rt.clock.now(), { key: kept }));
    await expect(
      unitOfWork(rt, handle.db, async (ctx) => {
        await scheduleJob(ctx, recordJob, rt.clock.now(), { key: dropped });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await new JobRunner(rt, handle.db, [recordJob]).runDue();
    expect(await effects(kept)).toHaveLength(1);
    expect(await effects(dropped)).toHaveLength(0);
    expect(await jobRow(dropped)).toBeUndefined();
    expect((await jobRow(kept))?.status).toBe('DONE');
  });

  it('a job due later waits for its time, then runs once', async () => {
    const rt = runtime();
    const key = unique();
    await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, recordJob, addMs(rt.clock.now(), 6 * 60_000), { key }));
    const runner = new JobRunner(rt, handle.db, [recordJob]);
    await runner.runDue();
    expect(await effects(key)).toHaveLength(0);
    rt.clock.advance(6 * 60_000);
    await runner.runDue();
    await runner.runDue();
    expect(await effects(key)).toHaveLength(1);
  });

  /** A started runner that wakes only when told (its poll is far longer than a test), as its server wires it. */
  const startedRunner = () => {
    let runner: JobRunner | undefined;
    const rt = { ...runtime(), wakeJobs: (inMs?: number) => runner?.wake(inMs) };
    runner = new JobRunner(rt, handle.db, [recordJob], { pollMs: 10 * 60_000 });
    runner.start();
    return { rt, runner };
  };
  /** Whether the job of `key` has run within 10 s. */
  const ranSoon = async (key: string) => {
    const deadline = Date.now() + 10_000;
    while ((await effects(key)).length === 0) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };

  it('a running runner runs a job scheduled for later at its time, told by the commit, not at its next poll', async () => {
    const { rt, runner } = startedRunner();
    try {
      const key = unique();
      const started = Date.now();
      await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, recordJob, addMs(rt.clock.now(), 300), { key }));
      expect(await ranSoon(key)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await runner.stop();
    }
  });

  it('a running runner retries a failed job at the end of its delay, not at its next poll', async () => {
    const { rt, runner } = startedRunner();
    try {
      const key = unique();
      await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, recordJob, rt.clock.now(), { key, fail: 1 })); // retried 1 s after its failure
      expect(await ranSoon(key)).toBe(true);
      expect(await effects(key)).toEqual([{ worker: '2' }]);
    } finally {
      await runner.stop();
    }
  });

  it('a failing job is retried after its delay, with nothing of the failed attempts kept, and fails for good after the last', async () => {
    const rt = runtime();
    const runner = new JobRunner(rt, handle.db, [recordJob]);
    const recovers = unique();
    const never = unique();
    await unitOfWork(rt, handle.db, async (ctx) => {
      await scheduleJob(ctx, recordJob, rt.clock.now(), { key: recovers, fail: 1 });
      await scheduleJob(ctx, recordJob, rt.clock.now(), { key: never, fail: 9 });
    });
    await runner.runDue();
    expect(await jobRow(recovers)).toMatchObject({ status: 'PENDING', attempts: 1, last_error: `failure 1 of ${recovers}` });
    await runner.runDue(); // not due yet: the first retry waits 1 s
    expect((await jobRow(recovers))?.attempts).toBe(1);
    rt.clock.advance(1_000);
    await runner.runDue();
    expect(await effects(recovers)).toEqual([{ worker: '2' }]);
    expect((await jobRow(recovers))?.status).toBe('DONE');
    rt.clock.advance(60_000);
    await runner.runDue();
    expect(await jobRow(never)).toMatchObject({ status: 'FAILED', attempts: 3, last_error: `failure 3 of ${never}` });
    expect(await effects(never)).toHaveLength(0);
  });

  it('a job leased by a process that died is run again once its lease has expired', async () => {
    const rt = runtime();
    const key = unique();
    await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, recordJob, rt.clock.now(), { key }));
    // A process leases the job and dies without finishing it.
    const at = rt.clock.now();
    const leased = await leaseDueJobs(handle.db, at, 'worker-that-died', addMs(at, LEASE_MS), 100, [recordJob.kind]);
    expect(leased.map((j) => j.payload.key)).toContain(key);
    const runner = new JobRunner(rt, handle.db, [recordJob]);
    await runner.runDue();
    expect(await effects(key)).toHaveLength(0);
    rt.clock.advance(LEASE_MS + 1);
    await runner.runDue();
    expect(await effects(key)).toEqual([{ worker: '2' }]);
  });

  it('a recurring job keeps one row and runs again at its interval', async () => {
    const rt = runtime();
    let runs = 0;
    const tick = defineJob<Record<string, never>>({ kind: `test.tick.${unique()}`, transactional: true, retryDelaysMs: [], recurEveryMs: 60_000, run: async () => void runs++ });
    await unitOfWork(rt, handle.db, (ctx) => scheduleRecurringJob(ctx, tick, {}));
    await unitOfWork(rt, handle.db, (ctx) => scheduleRecurringJob(ctx, tick, {})); // a second process starting
    const runner = new JobRunner(rt, handle.db, [tick]);
    await runner.runDue();
    expect(runs).toBe(1);
    rt.clock.advance(60_000);
    await runner.runDue();
    expect(runs).toBe(2);
    const rows = await sql<{ status: string }>`select status from jobs where kind = ${tick.kind}`.execute(handle.db);
    expect(rows.rows).toEqual([{ status: 'PENDING' }]);
  });

  it.skipIf(target !== 'postgres')('two runners on one PostgreSQL database never run one job twice', async () => {
    const second = await openDatabase({ databaseUrl: testDatabaseUrl, pgliteDataDir: 'memory://' }, pino({ level: 'silent' }));
    try {
      const rt = runtime();
      const keys = Array.from({ length: 200 }, unique);
      await unitOfWork(rt, handle.db, async (ctx) => {
        for (const key of keys) await scheduleJob(ctx, recordJob, rt.clock.now(), { key });
      });
      const a = new JobRunner(rt, handle.db, [recordJob], { batchSize: 5 });
      const b = new JobRunner(rt, second.db, [recordJob], { batchSize: 5 });
      const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
      expect(ranA + ranB).toBe(200);
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
      const counts = await sql<{ n: string }>`select count(*) as n from job_test_effects where key = any(${keys}) group by key`.execute(handle.db);
      expect(counts.rows).toHaveLength(200);
      expect(counts.rows.every((r) => Number(r.n) === 1)).toBe(true);
    } finally {
      await second.db.destroy();
    }
  });

  it.skipIf(target !== 'postgres')('a runner whose lease was taken over rolls its work back: the job takes effect once', async () => {
    const slowClock = new ShiftableClock();
    const key = unique();
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let started = () => {};
    const running = new Promise<void>((r) => (started = r));
    const slow = defineJob<{ key: string }>({
      kind: `test.slow.${key}`,
      transactional: true,
      retryDelaysMs: [],
      async run(ctx, payload) {
        await sql`insert into job_test_effects (key, worker) values (${payload.key}, ${ctx.attempt === 1 ? 'slow' : 'takeover'})`.execute(ctx.db);
        if (ctx.attempt === 1) {
          started();
          await held;
        }
      },
    });
    const rt = runtime(slowClock);
    await unitOfWork(rt, handle.db, (ctx) => scheduleJob(ctx, slow, slowClock.now(), { key }));
    const first = new JobRunner(rt, handle.db, [slow]).runDue();
    await running;
    // Another process whose clock is past the first one's lease takes the job over and finishes it.
    const laterClock = new ShiftableClock();
    laterClock.advance(LEASE_MS + 1_000);
    await new JobRunner(runtime(laterClock), handle.db, [slow]).runDue();
    release();
    await first;
    expect(await effects(key)).toEqual([{ worker: 'takeover' }]);
  });
});
