// The sandbox clocks' rows (migration 0019): how far a platform's clock is ahead of real time, and
// what of the platform's jobs is due when.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { retryRead } from '../db/transaction-retry.ts';

/** How far `platformId`'s clock is ahead of real time, in ms: 0 when it was never advanced. */
export async function findOffsetMs(db: Db, platformId: string): Promise<number> {
  const read = () => db.selectFrom('sandbox_clocks').select('offset_ms').where('platform_id', '=', platformId).executeTakeFirst();
  // Every request reads it first, outside any transaction: a connection lost under that read (the
  // database ended it) is read again on another, as it changed nothing; inside a transaction, the
  // transaction's own retry decides.
  const row = await (db.isTransaction ? read() : retryRead(read));
  // A bigint: PostgreSQL's driver hands it over as text.
  return row === undefined ? 0 : Number(row.offset_ms);
}

/** Moves the clock to `offsetMs` ahead of real time, unless it is further ahead already (it never goes back). */
export async function raiseOffset(db: Db, platformId: string, offsetMs: number, at: Date): Promise<void> {
  await db
    .insertInto('sandbox_clocks')
    .values({ platform_id: platformId, offset_ms: Math.max(0, Math.round(offsetMs)), updated_at: at })
    .onConflict((oc) =>
      oc.column('platform_id').doUpdateSet({
        offset_ms: sql`greatest(sandbox_clocks.offset_ms, excluded.offset_ms)`,
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .execute();
}

/**
 * Takes the platform's advance for itself until `until` (real time): false while another advance
 * holds it. A claim lapses at `until`, so a process that died mid-advance holds nobody up for long.
 */
export async function claimAdvance(db: Db, platformId: string, now: Date, until: Date): Promise<boolean> {
  const row = await db
    .insertInto('sandbox_clocks')
    .values({ platform_id: platformId, offset_ms: 0, updated_at: now, advancing_until: until })
    .onConflict((oc) =>
      oc
        .column('platform_id')
        .doUpdateSet({ advancing_until: until })
        .where((eb) => eb.or([eb('sandbox_clocks.advancing_until', 'is', null), eb('sandbox_clocks.advancing_until', '<=', now)])),
    )
    .returning('platform_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps the platform's advance (a step of it began) until `until`. */
export async function renewAdvance(db: Db, platformId: string, until: Date): Promise<void> {
  await db.updateTable('sandbox_clocks').set({ advancing_until: until }).where('platform_id', '=', platformId).execute();
}

/** Lets the next advance of the platform run. */
export async function releaseAdvance(db: Db, platformId: string): Promise<void> {
  await db.updateTable('sandbox_clocks').set({ advancing_until: null }).where('platform_id', '=', platformId).execute();
}

/** When the platform's first pending job after `after` (on its clock) is due; undefined when it has none. */
export async function nextJobAfter(db: Db, platformId: string, after: Date): Promise<Date | undefined> {
  const row = await db
    .selectFrom('jobs')
    .select('run_at')
    .where('platform_id', '=', platformId)
    .where('status', '=', 'PENDING')
    .where('run_at', '>', after)
    .orderBy('run_at')
    .limit(1)
    .executeTakeFirst();
  return row?.run_at;
}

/** How many of the platform's jobs due by `platformNow` another run holds a lease on at `realNow`. */
export async function countLeasedDue(db: Db, platformId: string, platformNow: Date, realNow: Date): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('platform_id', '=', platformId)
    .where('status', '=', 'PENDING')
    .where('run_at', '<=', platformNow)
    .where('locked_until', '>=', realNow)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
