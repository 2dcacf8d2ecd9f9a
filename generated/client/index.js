export { API_VERSION, createAgentClient, createPaymentsClient } from './client.js';
export { basicAuth, bearerAuth } from './auth.js';
export { IDEMPOTENCY_KEY, idempotencyKeys, takesIdempotencyKey } from './idempotency.js';
export { idempotencyKeyOperations } from './idempotency-key-operations.js';
export { isRepeatable, resilientFetch, retryAfterMs } from './retry.js';
export { isPaymentsApiError, PaymentsApiError, REQUEST_ID_HEADER, unwrap } from './errors.js';
export { paginate } from './paginate.js';
export { withSignedRetry } from './signed-retry.js';
export { verifyWebhook, WebhookSignatureError } from './webhooks.js';
