// The typed client of the Payments Service API and its helpers. Every type comes from the spec
// (generated/openapi.d.ts); this file only names what the package exports.
export type { components, operations, paths, webhooks } from '../generated/openapi.js';
export { API_VERSION, createAgentClient, createPaymentsClient, type AgentClientOptions, type CommonClientOptions, type PaymentsClient, type PaymentsClientOptions } from './client.js';
export { basicAuth, bearerAuth } from './auth.js';
export { IDEMPOTENCY_KEY, idempotencyKeys, takesIdempotencyKey } from './idempotency.js';
export { idempotencyKeyOperations } from './idempotency-key-operations.js';
export { isRepeatable, resilientFetch, retryAfterMs, type Fetch, type RetryOptions, type Sleep } from './retry.js';
export { isPaymentsApiError, PaymentsApiError, REQUEST_ID_HEADER, unwrap, type ApiErrorBody, type ApiErrorCode } from './errors.js';
export { paginate, type ListItem, type ListPath } from './paginate.js';
export { withSignedRetry, type SignatureHeaders, type SignedResult, type SignedRetryChallenge, type WalletSigner } from './signed-retry.js';
export { verifyWebhook, WebhookSignatureError, type WebhookEvent, type WebhookEventOf, type WebhookHeaders } from './webhooks.js';
