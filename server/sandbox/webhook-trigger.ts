// POST /sandbox/webhooks/trigger: one event of any type, with a sample `data` of that type
// (sample-events.ts), signed and sent to the platform's endpoint at once like the test webhook,
// and the answer: the event as sent and the endpoint's reply. Nothing is stored or retried: the
// event reports nothing that happened.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { realNow } from '../shared/clock.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { postSignedWebhook } from '../webhooks/webhook-sender.ts';
import { toEventBody } from '../webhooks/webhooks.mapper.ts';
import { findWebhookTarget } from '../webhooks/webhooks.repository.ts';
import { TEST_MESSAGE } from '../webhooks/webhooks.service.ts';
import { sampleEventData } from './sample-events.ts';

type Schemas = components['schemas'];

/** What the result keeps of the endpoint's answer. */
const MAX_RESPONSE_CHARS = 1_000;

/** Sends the event now. Waits on the network: call it outside any transaction. */
export async function triggerWebhook(ctx: PlatformContext, type: Schemas['WebhookEventType']): Promise<Schemas['SandboxWebhookTriggerResult']> {
  const platform = await findWebhookTarget(ctx.db, ctx.platformId);
  if (platform === undefined) throw notFound('NOT_FOUND', 'No such platform.');
  if (platform.webhook_endpoint === null || platform.webhook_signing_secret === null) {
    throw badRequest('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config.');
  }
  const at = ctx.clock.now();
  const event = toEventBody(type, type === 'TEST' ? { message: TEST_MESSAGE } : sampleEventData(type), at);
  const secret = ctx.keys.open(platform.webhook_signing_secret);
  // Signed at real time, as every delivery is: receivers refuse a signature dated ahead of theirs.
  const result = await postSignedWebhook(platform.webhook_endpoint, secret, { id: event.id, body: JSON.stringify(event), at: realNow(ctx.clock) }, ctx.settings.allowPrivateWebhookTargets);
  return {
    eventId: event.id,
    type,
    // The body as sent. Its `data` comes from the spec's own webhook examples (sample-events.ts), which
    // lint validates against the webhook's schema; the contract tests validate every type's answer.
    event: event as Schemas['AnyWebhookEvent'],
    url: platform.webhook_endpoint,
    responseStatus: result.responseStatus,
    responseBody: (result.error ?? result.responseBody).slice(0, MAX_RESPONSE_CHARS),
  };
}
