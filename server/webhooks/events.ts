// Builds webhook events (the envelope of spec/components/schemas/webhooks/WebhookEvent.yaml) and
// queues them in the caller's transaction.
import type { components } from '../../generated/openapi.js';
import type { Db } from '../db/database.ts';
import { iso, newId, now } from '../http/ids.ts';
import { enqueueEvent } from './outbox.repository.ts';

export type WebhookEventType = components['schemas']['WebhookEventType'];

export function buildEvent(type: WebhookEventType, data: object, at = now()) {
  return { id: newId('Event'), type, timestamp: iso(at), data };
}

export async function queueEvent(db: Db, platformId: string, type: WebhookEventType, data: object): Promise<string> {
  const at = now();
  const event = buildEvent(type, data, at);
  await enqueueEvent(db, { id: event.id, platformId, type, payload: event, at });
  return event.id;
}

export const TEST_MESSAGE = 'This is a test webhook from the Payments Service.';
