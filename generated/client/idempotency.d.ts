import type { Middleware } from 'openapi-fetch';
export declare const IDEMPOTENCY_KEY = "Idempotency-Key";
/** Whether the operation `METHOD /path` (the path as the spec names it) documents an Idempotency-Key. */
export declare const takesIdempotencyKey: (method: string, schemaPath: string) => boolean;
export declare const idempotencyKeys: (newKey?: () => string) => Middleware;
