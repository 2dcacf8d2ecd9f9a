// The automatic Idempotency-Key: operations that document the header get a random UUID unless the
// caller sent one. It is set once, before the fetch that retries, so every attempt of a call
// carries the same key and the server does the work at most once.
import type { Middleware } from 'openapi-fetch';
import { idempotencyKeyOperations } from './idempotency-key-operations.js';

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

const keyed: ReadonlySet<string> = new Set(idempotencyKeyOperations);

/** Whether the operation `METHOD /path` (the path as the spec names it) documents an Idempotency-Key. */
export const takesIdempotencyKey = (method: string, schemaPath: string): boolean => keyed.has(`${method.toUpperCase()} ${schemaPath}`);

export const idempotencyKeys = (newKey: () => string = () => crypto.randomUUID()): Middleware => ({
  onRequest({ request, schemaPath }) {
    if (takesIdempotencyKey(request.method, schemaPath) && !request.headers.has(IDEMPOTENCY_KEY)) request.headers.set(IDEMPOTENCY_KEY, newKey());
    return request;
  },
});
