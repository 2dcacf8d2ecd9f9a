// Webhook delivery as a job: one outbox event to the platform's endpoint. It reads the endpoint and
// the secret at delivery time (so a rotated secret signs every later attempt), records the attempt,
// and throws on a failed answer so the job runner retries it on the Standard Webhooks schedule
// (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h). It waits on the network, so it never runs inside a
// transaction.
import { defineJob, type JobContext } from '../jobs/job-definition.ts';
import { realNow } from '../shared/clock.ts';
import { findEventWithEndpoint, recordAttempt } from './webhooks.repository.ts';
import { postSignedWebhook } from './webhook-sender.ts';

export const deliverWebhookJob = defineJob<{ eventId: string }>({
  kind: 'webhooks.deliver',
  transactional: false,
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000],
  run: (ctx, { eventId }) => deliverEvent(ctx, eventId),
});

class DeliveryFailed extends Error {}

async function deliverEvent(ctx: JobContext, eventId: string): Promise<void> {
  const event = await findEventWithEndpoint(ctx.db, eventId);
  if (event === undefined || event.status !== 'PENDING') return;
  if (event.webhook_endpoint === null || event.webhook_signing_secret === null) {
    await recordAttempt(ctx.db, event.id, { status: 'FAILED', responseStatus: null, error: 'no webhook endpoint configured', deliveredAt: null });
    return;
  }
  const sentAt = ctx.clock.now();
  const secret = ctx.keys.open(event.webhook_signing_secret);
  // Signed at real time: receivers check webhook-timestamp against their own clock (replay
  // protection), whatever the platform's sandbox clock says; the event's own times follow that clock.
  const signed = { id: event.id, body: JSON.stringify(event.payload), at: realNow(ctx.clock) };
  const result = await postSignedWebhook(event.webhook_endpoint, secret, signed, ctx.settings.allowPrivateWebhookTargets);
  const ok = result.responseStatus >= 200 && result.responseStatus < 300;
  const lastAttempt = ctx.attempt >= ctx.maxAttempts;
  await recordAttempt(ctx.db, event.id, {
    status: ok ? 'DELIVERED' : lastAttempt ? 'FAILED' : 'PENDING',
    responseStatus: result.responseStatus,
    error: result.error ?? null,
    deliveredAt: ok ? sentAt : null,
  });
  if (!ok) throw new DeliveryFailed(`webhook ${event.type} answered ${result.responseStatus}${result.error === undefined ? '' : ` (${result.error})`}`);
}
