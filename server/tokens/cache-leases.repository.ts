// The credential caches' leases and messages (see shared-credential-cache.ts). Every time here is the
// database's clock_timestamp(), so processes with skewed clocks still agree on what is live.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export const CACHE_CHANNEL = 'credential_cache';

const inMs = (ms: number) => sql<Date>`clock_timestamp() + (${ms}::int * interval '1 millisecond')`;

export async function registerLease(db: Db, id: string, ttlMs: number): Promise<void> {
  await db
    .insertInto('credential_cache_leases')
    .values({ id, registered_at: sql<Date>`clock_timestamp()`, expires_at: inMs(ttlMs) })
    .execute();
}

/** False when the lease is gone: a revocation fenced this process off, or housekeeping removed it. */
export async function renewLease(db: Db, id: string, ttlMs: number): Promise<boolean> {
  const row = await db.updateTable('credential_cache_leases').set({ expires_at: inMs(ttlMs) }).where('id', '=', id).returning('id').executeTakeFirst();
  return row !== undefined;
}

export async function releaseLease(db: Db, id: string): Promise<void> {
  await db.deleteFrom('credential_cache_leases').where('id', '=', id).execute();
}

/**
 * The leases live now that were registered before `registeredBefore` (default: now), and the
 * database's time of the answer: the processes that may hold a credential read before then.
 */
export async function liveLeases(db: Db, registeredBefore?: Date): Promise<{ ids: string[]; at: Date }> {
  const { rows } = await sql<{ id: string | null; at: Date }>`
    select l.id, now.at from (select clock_timestamp() as at) now
    left join credential_cache_leases l on l.expires_at > now.at and l.registered_at < coalesce(${registeredBefore ?? null}::timestamptz, now.at)`.execute(db);
  const at = rows[0]?.at;
  if (at === undefined) throw new Error('no answer from clock_timestamp()');
  return { ids: rows.flatMap((r) => (r.id === null ? [] : [r.id])), at };
}

/**
 * Deletes leases, so their processes cannot renew them, and returns how long until the latest of
 * them would have expired: until then a process may still be using its cache.
 */
export async function fenceLeases(db: Db, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .deleteFrom('credential_cache_leases')
    .where('id', 'in', ids)
    .returning(sql<number>`greatest(0, extract(epoch from (expires_at - clock_timestamp())) * 1000)::float8`.as('remaining_ms'))
    .execute();
  return Math.max(0, ...rows.map((r) => r.remaining_ms));
}

/** Leases of processes that ended without releasing them (killed, cut off). */
export async function deleteLongExpiredLeases(db: Db, olderThanMs: number): Promise<void> {
  await db.deleteFrom('credential_cache_leases').where('expires_at', '<', inMs(-olderThanMs)).execute();
}

/** Delivered to every listening process when `db`'s transaction commits (at once outside one). */
export async function notifyCaches(db: Db, message: string): Promise<void> {
  await sql`select pg_notify(${CACHE_CHANNEL}, ${message})`.execute(db);
}
