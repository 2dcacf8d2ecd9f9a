// Webhook events: emitted by services into the outbox, in the caller's transaction, with their
// delivery scheduled as a job (so an event goes out only if the change it reports commits, and a
// restart loses none); and the sandbox's synchronous test webhook.
import type { components, webhooks } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { newJob, scheduleWith } from '../jobs/schedule.ts';
import { realNow } from '../shared/clock.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { deliverWebhookJob } from './webhooks.jobs.ts';
import { toEventBody } from './webhooks.mapper.ts';
import { findWebhookTarget, insertEvent } from './webhooks.repository.ts';
import { postSignedWebhook } from './webhook-sender.ts';

export type WebhookEventType = components['schemas']['WebhookEventType'];
export const TEST_MESSAGE = 'This is a test webhook from the Payments Service.';

/** The body of each webhook the spec declares (`webhooks:`), by the webhook's name. */
type WebhookBody = { [Name in keyof webhooks]: webhooks[Name]['post']['requestBody']['content']['application/json'] };
/** The event types the webhook `Name` carries (`incoming-payment`: the three INCOMING_PAYMENT_ ones). */
export type EventTypeOf<Name extends keyof webhooks> = WebhookBody[Name]['type'];
/** The `data` of an event of type `Type`, as the webhook that carries it declares it. */
export type EventData<Type extends WebhookEventType> = { [Name in keyof webhooks]: Type extends EventTypeOf<Name> ? WebhookBody[Name]['data'] : never }[keyof webhooks];

/** Queues an event in the caller's database transaction: it goes out only if the change it reports commits. */
export async function emitEvent<Type extends WebhookEventType>(ctx: PlatformContext, type: Type, data: EventData<Type>): Promise<string> {
  const at = ctx.clock.now();
  const event = toEventBody(type, data, at);
  // A TEST event is a one-off check of the endpoint, never retried.
  const delivery = newJob(ctx, deliverWebhookJob, at, { eventId: event.id }, type === 'TEST' ? { maxAttempts: 1 } : {});
  await scheduleWith(ctx, delivery, (job) => insertEvent(ctx.db, { platformId: ctx.platformId, event, at }, job));
  return event.id;
}

/** Sends a TEST event now and reports the answer. Waits on the network: call it outside any transaction. */
export async function sendTestWebhook(ctx: PlatformContext): Promise<components['schemas']['SandboxWebhookTestResult']> {
  const platform = await findWebhookTarget(ctx.db, ctx.platformId);
  if (platform === undefined) throw notFound('NOT_FOUND', 'No such platform.');
  if (platform.webhook_endpoint === null || platform.webhook_signing_secret === null) {
    throw badRequest('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config.');
  }
  const at = ctx.clock.now();
  const event = toEventBody('TEST', { message: TEST_MESSAGE }, at);
  const secret = ctx.keys.open(platform.webhook_signing_secret);
  // Signed at real time, whatever the platform's sandbox clock says (webhooks.jobs.ts).
  const result = await postSignedWebhook(platform.webhook_endpoint, secret, { id: event.id, body: JSON.stringify(event), at: realNow(ctx.clock) }, ctx.settings.allowPrivateWebhookTargets);
  return { response_status: result.responseStatus, url: platform.webhook_endpoint, response_body: result.error ?? result.responseBody };
}
