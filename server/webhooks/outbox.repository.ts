import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { WebhookOutboxTable } from '../db/schema.ts';

export type OutboxRow = Selectable<WebhookOutboxTable>;

export async function enqueueEvent(db: Db, row: { id: string; platformId: string; type: string; payload: object; at: Date }): Promise<void> {
  await db
    .insertInto('webhook_outbox')
    .values({ id: row.id, platform_id: row.platformId, type: row.type, payload: JSON.stringify(row.payload), status: 'PENDING', next_attempt_at: row.at, created_at: row.at, last_response_status: null, last_error: null, delivered_at: null })
    .execute();
}

/**
 * Leases up to `limit` due events: pushes their next attempt past the lease so no other process
 * takes them while this one delivers (SKIP LOCKED keeps concurrent leasers apart).
 */
export async function leaseDueEvents(db: Db, at: Date, leaseUntil: Date, limit: number): Promise<(OutboxRow & { webhook_endpoint: string | null; webhook_signing_secret: string | null })[]> {
  const due = db
    .selectFrom('webhook_outbox')
    .select('id')
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', at)
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const leased = await db
    .updateTable('webhook_outbox')
    .set({ next_attempt_at: leaseUntil, attempts: sql`attempts + 1` })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  if (leased.length === 0) return [];
  const platforms = await db
    .selectFrom('platforms')
    .select(['id', 'webhook_endpoint', 'webhook_signing_secret'])
    .where('id', 'in', [...new Set(leased.map((r) => r.platform_id))])
    .execute();
  const byId = new Map(platforms.map((p) => [p.id, p]));
  return leased.map((r) => ({ ...r, webhook_endpoint: byId.get(r.platform_id)?.webhook_endpoint ?? null, webhook_signing_secret: byId.get(r.platform_id)?.webhook_signing_secret ?? null }));
}

export async function recordAttempt(
  db: Db,
  id: string,
  outcome: { status: 'PENDING' | 'DELIVERED' | 'FAILED'; responseStatus: number | null; error: string | null; nextAttemptAt: Date; deliveredAt: Date | null },
): Promise<void> {
  await db
    .updateTable('webhook_outbox')
    .set({ status: outcome.status, last_response_status: outcome.responseStatus, last_error: outcome.error, next_attempt_at: outcome.nextAttemptAt, delivered_at: outcome.deliveredAt })
    .where('id', '=', id)
    .execute();
}
