// The webhook outbox: each event the service emits, written in the transaction of the change it
// reports, with the record of its delivery. Delivery itself is a job (webhooks.jobs.ts).
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { jobValues, type NewJob } from '../jobs/jobs.repository.ts';
import type { WebhookEventBody, WebhookOutboxTable } from '../db/schema.ts';

export type OutboxRow = Selectable<WebhookOutboxTable>;

/** Writes an event to the outbox and the job that delivers it, in one statement. */
export async function insertEvent(db: Db, row: { platformId: string; event: WebhookEventBody; at: Date }, delivery: NewJob): Promise<void> {
  await db
    .with('event', (qb) =>
      qb.insertInto('webhook_outbox').values({
        id: row.event.id,
        platform_id: row.platformId,
        type: row.event.type,
        payload: JSON.stringify(row.event),
        status: 'PENDING',
        last_response_status: null,
        last_error: null,
        created_at: row.at,
        delivered_at: null,
      }),
    )
    .insertInto('jobs')
    .values(jobValues(delivery))
    .execute();
}

export type OutboxRowWithEndpoint = OutboxRow & { webhook_endpoint: string | null; webhook_signing_secret: string | null };

/** An event, with the endpoint and signing secret its platform has now (null when it has none). */
export async function findEventWithEndpoint(db: Db, id: string): Promise<OutboxRowWithEndpoint | undefined> {
  return db
    .selectFrom('webhook_outbox')
    .leftJoin('platforms', 'platforms.id', 'webhook_outbox.platform_id')
    .selectAll('webhook_outbox')
    .select(['platforms.webhook_endpoint', 'platforms.webhook_signing_secret'])
    .where('webhook_outbox.id', '=', id)
    .executeTakeFirst();
}

/** Where a platform's webhooks go and the secret that signs them (nulls when it set none), or undefined when there is no such platform. */
export async function findWebhookTarget(db: Db, platformId: string): Promise<{ webhook_endpoint: string | null; webhook_signing_secret: string | null } | undefined> {
  return db.selectFrom('platforms').select(['webhook_endpoint', 'webhook_signing_secret']).where('id', '=', platformId).executeTakeFirst();
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
