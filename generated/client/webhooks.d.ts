import type { webhooks } from '../openapi.js';
type EventOf<K extends keyof webhooks> = webhooks[K] extends {
    post: {
        requestBody: {
            content: {
                'application/json': infer B;
            };
        };
    };
} ? B : never;
/** Every webhook body the spec defines, discriminated by `type`. */
export type WebhookEvent = {
    [K in keyof webhooks]: EventOf<K>;
}[keyof webhooks];
/** The body of the events of one `type` (e.g. `'OUTGOING_PAYMENT.COMPLETED'`). */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, {
    type: T;
}>;
/** A webhook whose signature, headers or timestamp do not verify: answer it with 400 and drop it. */
export declare class WebhookSignatureError extends Error {
    readonly name = "WebhookSignatureError";
}
/** Fetch `Headers` or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
/**
 * The verified event of a webhook delivery. `secret` is `PlatformConfig.webhookSigningSecret`
 * (`whsec_...`), `rawBody` the bytes (or their text) as received, `headers` a Fetch `Headers` or Node's
 * `IncomingHttpHeaders`. Throws WebhookSignatureError when it does not verify.
 */
export declare function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookEvent;
export {};
