// Sample webhook events for POST /sandbox/webhooks/trigger: the `data` of each event type, built
// from the examples the spec gives of the webhook that carries the type (generated/openapi.json),
// put in the status the type names. They are samples: their ids name no object of the platform.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { components } from '../../generated/openapi.js';

type EventType = components['schemas']['WebhookEventType'];
type Json = Record<string, unknown>;

interface WebhookExample {
  type: EventType;
  data: Json;
}

/** Every example of every webhook, in the spec's order. */
function loadExamples(): WebhookExample[] {
  const bundle = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'generated', 'openapi.json'), 'utf8')) as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { examples?: Record<string, { value: WebhookExample }>; schema: { $ref: string } }> } } }>;
  };
  return Object.values(bundle.webhooks).flatMap((w) => Object.values(w.post.requestBody.content['application/json']?.examples ?? {}).map((e) => e.value));
}

let examples: WebhookExample[] | undefined;

/** The statuses each event type is sent for (WebhookEventType's table), as the sample's fields. */
const AS: Partial<Record<EventType, { like: EventType; set: Json; drop?: string[] }>> = {
  INCOMING_PAYMENT_PENDING: { like: 'INCOMING_PAYMENT_COMPLETED', set: { status: 'PENDING' }, drop: ['settledAt'] },
  INCOMING_PAYMENT_FAILED: { like: 'INCOMING_PAYMENT_COMPLETED', set: { status: 'FAILED', failureReason: 'BANK_REJECTED' }, drop: ['settledAt'] },
  OUTGOING_PAYMENT_PENDING: { like: 'OUTGOING_PAYMENT_PROCESSING', set: { status: 'PENDING' } },
  OUTGOING_PAYMENT_FAILED: { like: 'OUTGOING_PAYMENT_PROCESSING', set: { status: 'FAILED', failureReason: 'COUNTERPARTY_DELIVERY_FAILED' } },
  OUTGOING_PAYMENT_EXPIRED: { like: 'OUTGOING_PAYMENT_PROCESSING', set: { status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' } },
  CUSTOMER_KYC_PENDING: { like: 'CUSTOMER_KYC_APPROVED', set: { kycStatus: 'PENDING' } },
  CUSTOMER_KYC_REJECTED: { like: 'CUSTOMER_KYC_APPROVED', set: { kycStatus: 'REJECTED' } },
  CUSTOMER_KYB_PENDING: { like: 'CUSTOMER_KYB_APPROVED', set: { kybStatus: 'PENDING' } },
  CUSTOMER_KYB_REJECTED: { like: 'CUSTOMER_KYB_APPROVED', set: { kybStatus: 'REJECTED' } },
  AGENT_ACTION_REJECTED: { like: 'AGENT_ACTION_PENDING_APPROVAL', set: { status: 'REJECTED', rejectionReason: 'The amount is above what the customer asked for.' } },
  AGENT_ACTION_FAILED: { like: 'AGENT_ACTION_APPROVED', set: { status: 'FAILED' } },
};

/** The example of exactly this type, if the spec gives one. */
const exampleOf = (type: EventType): WebhookExample | undefined => (examples ??= loadExamples()).find((e) => e.type === type);

/** A realistic `data` for an event of `type`. */
export function sampleEventData(type: EventType): Json {
  const own = exampleOf(type);
  if (own !== undefined) return structuredClone(own.data);
  const recipe = AS[type];
  const base = recipe === undefined ? undefined : exampleOf(recipe.like);
  if (recipe === undefined || base === undefined) throw new Error(`sandbox: no sample event data for ${type}; give its webhook an example in the spec`);
  const data: Json = { ...structuredClone(base.data), ...recipe.set };
  for (const field of recipe.drop ?? []) delete data[field];
  return data;
}
