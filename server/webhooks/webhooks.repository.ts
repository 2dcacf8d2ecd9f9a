// The webhook outbox: each event the service emits, written in the transaction of the change it
// reports, with the record of its delivery. Delivery itself is a job (webhooks.jobs.ts).
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { WebhookEventBody, WebhookOutboxTable } from '../db/schema.ts';

export type OutboxRow = Selectable<WebhookOutboxTable>;

export async function insertEvent(db: Db, row: { platformId: string; event: WebhookEventBody; at: Date }): Promise<void> {
  await db
    .insertInto('webhook_outbox')
    .values({
      id: row.event.id,
      platform_id: row.platformId,
      type: row.event.type,
      payload: JSON.stringify(row.event),
      status: 'PENDING',
      last_response_status: null,
      last_error: null,
      created_at: row.at,
      delivered_at: null,
    })
    .execute();
}

export async function findEvent(db: Db, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('webhook_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function recordAttempt(
  db: Db,
  id: string,
  outcome: { status: OutboxRow['status']; responseStatus: number | null; error: string | null; deliveredAt: Date | null },
): Promise<void> {
  await db
    .updateTable('webhook_outbox')
    .set({ status: outcome.status, attempts: sql`attempts + 1`, last_response_status: outcome.responseStatus, last_error: outcome.error, delivered_at: outcome.deliveredAt })
    .where('id', '=', id)
    .execute();
}
