// Delivers the webhook outbox: leases due events, posts them, and schedules retries with backoff
// (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h). TEST events are never retried.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import { now } from '../http/ids.ts';
import { leaseDueEvents, recordAttempt } from './outbox.repository.ts';
import { DELIVERY_TIMEOUT_MS, sendWebhook } from './send.ts';

const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000];
const LEASE_MS = DELIVERY_TIMEOUT_MS * 2;

export async function deliverDueWebhooks(db: Kysely<Database>, log: Logger): Promise<number> {
  const at = now();
  const events = await leaseDueEvents(db, at, new Date(at.getTime() + LEASE_MS), 20);
  await Promise.all(
    events.map(async (event) => {
      if (event.webhook_endpoint === null || event.webhook_signing_secret === null) {
        await recordAttempt(db, event.id, { status: 'FAILED', responseStatus: null, error: 'no webhook endpoint configured', nextAttemptAt: at, deliveredAt: null });
        return;
      }
      const sentAt = now();
      const result = await sendWebhook(event.webhook_endpoint, event.webhook_signing_secret, { id: event.id, body: JSON.stringify(event.payload), at: sentAt });
      const ok = result.responseStatus >= 200 && result.responseStatus < 300;
      const delay = RETRY_DELAYS_MS[event.attempts - 1];
      const giveUp = !ok && (event.type === 'TEST' || delay === undefined);
      await recordAttempt(db, event.id, {
        status: ok ? 'DELIVERED' : giveUp ? 'FAILED' : 'PENDING',
        responseStatus: result.responseStatus,
        error: result.error ?? null,
        nextAttemptAt: new Date(sentAt.getTime() + (ok || giveUp ? 0 : (delay ?? 0))),
        deliveredAt: ok ? sentAt : null,
      });
      if (!ok) log.warn({ event: event.id, type: event.type, status: result.responseStatus, error: result.error, giveUp }, 'webhook delivery failed');
    }),
  );
  return events.length;
}

/** Polls the outbox until stopped; a poll is skipped while the previous one is still delivering. */
export function startWebhookDelivery(db: Kysely<Database>, log: Logger, intervalMs = 500): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) return;
    running = deliverDueWebhooks(db, log)
      .catch((err: unknown) => log.error({ err }, 'webhook delivery loop failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
