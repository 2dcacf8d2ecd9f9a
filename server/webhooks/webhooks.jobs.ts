// Webhook delivery as a job. It waits on the network, so it never runs inside a transaction;
// retries follow the Standard Webhooks schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h.
import { defineJob } from '../jobs/job-definition.ts';
import { deliverEvent } from './webhooks.delivery.ts';

export const deliverWebhookJob = defineJob<{ eventId: string }>({
  kind: 'webhooks.deliver',
  transactional: false,
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000],
  run: (ctx, { eventId }) => deliverEvent(ctx, eventId),
});
