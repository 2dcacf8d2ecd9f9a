import { idempotencyKeyOperations } from './idempotency-key-operations.js';
export const IDEMPOTENCY_KEY = 'Idempotency-Key';
const keyed = new Set(idempotencyKeyOperations);
/** Whether the operation `METHOD /path` (the path as the spec names it) documents an Idempotency-Key. */
export const takesIdempotencyKey = (method, schemaPath) => keyed.has(`${method.toUpperCase()} ${schemaPath}`);
export const idempotencyKeys = (newKey = () => crypto.randomUUID()) => ({
    onRequest({ request, schemaPath }) {
        if (takesIdempotencyKey(request.method, schemaPath) && !request.headers.has(IDEMPOTENCY_KEY))
            request.headers.set(IDEMPOTENCY_KEY, newKey());
        return request;
    },
});
