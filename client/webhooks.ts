// Webhook verification with the Standard Webhooks scheme the service signs with: HMAC-SHA256 of
// "{webhook-id}.{webhook-timestamp}.{raw body}" keyed with the platform's `whsec_` secret, and
// timestamps more than 5 minutes from the clock refused. Verify the raw body, before any parsing.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from '../generated/openapi.js';

type EventOf<K extends keyof webhooks> = webhooks[K] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/** Every webhook body the spec defines, discriminated by `type`. */
export type WebhookEvent = { [K in keyof webhooks]: EventOf<K> }[keyof webhooks];
/** The body of the events of one `type` (e.g. `'OUTGOING_PAYMENT.COMPLETED'`). */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;

/** A webhook whose signature, headers or timestamp do not verify: answer it with 400 and drop it. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/** Fetch `Headers` or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const header = (headers: WebhookHeaders, name: string): string => {
  const value = headers instanceof Headers ? headers.get(name) : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return (Array.isArray(value) ? value.join(' ') : value) ?? '';
};

/**
 * The verified event of a webhook delivery. `secret` is `PlatformConfig.webhookSigningSecret`
 * (`whsec_...`), `rawBody` the bytes (or their text) as received, `headers` a Fetch `Headers` or Node's
 * `IncomingHttpHeaders`. Throws WebhookSignatureError when it does not verify.
 */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookEvent {
  const signed = { 'webhook-id': header(headers, 'webhook-id'), 'webhook-timestamp': header(headers, 'webhook-timestamp'), 'webhook-signature': header(headers, 'webhook-signature') };
  try {
    // Decoded here: the library would turn a bare Uint8Array into "1,2,3" (it expects Node's Buffer).
    const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
    return new Webhook(secret).verify(body, signed) as WebhookEvent;
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WebhookSignatureError(error.message, { cause: error });
    throw error;
  }
}
