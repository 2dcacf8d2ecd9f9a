// The jobs table: a job is a row, written in the transaction of the change that causes it (so it
// exists only if that change commits), leased by one process at a time with FOR UPDATE SKIP
// LOCKED, and finished by a conditional update that only the lease holder can make.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { JobTable } from '../db/schema.ts';

export type JobRow = Selectable<JobTable>;

export interface NewJob {
  id: string;
  kind: string;
  payload: object;
  runAt: Date;
  maxAttempts: number;
  at: Date;
  /** The platform whose sandbox clock `runAt` is on; null: real time. */
  platformId: string | null;
}

/** The row of a new job, PENDING and unleased. */
export function jobValues(job: NewJob): Insertable<JobTable> {
  return {
    id: job.id,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    status: 'PENDING',
    run_at: job.runAt,
    max_attempts: job.maxAttempts,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: job.at,
    updated_at: job.at,
    platform_id: job.platformId,
  };
}

export async function insertJob(db: Db, job: NewJob): Promise<void> {
  await db
    .insertInto('jobs')
    .values(jobValues(job))
    // Recurring jobs have a fixed id: scheduling one that exists already is a no-op.
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** A leased job, with how far its platform's sandbox clock is ahead of real time (0: none, or real time). */
export type LeasedJob = JobRow & { offsetMs: number };

/** How far the sandbox clock of the job's platform is ahead, in ms (0 without one): SQL over `jobs`. */
const offsetOfJob = sql<string>`coalesce((select c.offset_ms from sandbox_clocks c where c.platform_id = jobs.platform_id), 0)`;

/**
 * Leases up to `limit` due jobs of `kinds` for `worker` until `leaseUntil`; an expired lease counts
 * as free. `at` is real time: a job is due when its `run_at` has passed on its platform's clock.
 * `platformId` limits it to one platform's jobs (advancing that platform's clock).
 */
export async function leaseDueJobs(db: Db, at: Date, worker: string, leaseUntil: Date, limit: number, kinds: readonly string[], platformId?: string): Promise<LeasedJob[]> {
  if (kinds.length === 0) return [];
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('status', '=', 'PENDING')
    .where('kind', 'in', kinds)
    // A job is due at run_at on its platform's clock, that is at run_at - offset in real time.
    .where((eb) =>
      eb.or([
        eb('run_at', '<=', at),
        eb.and([eb('platform_id', 'is not', null), eb('run_at', '<=', sql<Date>`${at}::timestamptz + ${offsetOfJob} * interval '1 millisecond'`)]),
      ]),
    )
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
    .orderBy('run_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  if (platformId !== undefined) due = due.where('platform_id', '=', platformId);
  const rows = await db
    .updateTable('jobs')
    .set({ locked_by: worker, locked_until: leaseUntil, attempts: sql`attempts + 1`, updated_at: at })
    .where('id', 'in', due)
    .returningAll()
    .returning(offsetOfJob.as('offset_ms'))
    .execute();
  // offset_ms is a bigint: PostgreSQL's driver hands it over as text.
  return rows.map(({ offset_ms, ...row }) => ({ ...row, offsetMs: Number(offset_ms) })).sort((a, b) => a.run_at.getTime() - b.run_at.getTime());
}

type Lease = Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;

const held = (db: Db, lease: Lease) =>
  db
    .updateTable('jobs')
    .where('id', '=', lease.id)
    .where('status', '=', 'PENDING')
    .where('locked_by', '=', lease.locked_by)
    .where('attempts', '=', lease.attempts);

/** Marks the job done, if this lease still holds it; false when another process took it over. */
export async function completeJob(db: Db, lease: Lease, at: Date): Promise<boolean> {
  const result = await held(db, lease).set({ status: 'DONE', locked_by: null, locked_until: null, last_error: null, updated_at: at }).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A recurring job's next run: it stays PENDING, attempts start again. */
export async function rescheduleJob(db: Db, lease: Lease, runAt: Date, at: Date): Promise<boolean> {
  const result = await held(db, lease).set({ run_at: runAt, attempts: 0, locked_by: null, locked_until: null, last_error: null, updated_at: at }).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function retryJobLater(db: Db, lease: Lease, runAt: Date, error: string, at: Date): Promise<void> {
  await held(db, lease).set({ run_at: runAt, locked_by: null, locked_until: null, last_error: error, updated_at: at }).execute();
}

export async function failJob(db: Db, lease: Lease, error: string, at: Date): Promise<void> {
  await held(db, lease).set({ status: 'FAILED', locked_by: null, locked_until: null, last_error: error, updated_at: at }).execute();
}

export async function deleteFinishedJobs(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('jobs').where('status', '=', 'DONE').where('updated_at', '<', before).execute();
}
