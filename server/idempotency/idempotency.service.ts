// Idempotency-Key semantics (IETF draft): same key and request → the stored response; same key and
// a different request → 422; same key while the first is running → 409; a 5xx is never stored, nor
// a 401 or a 202 signed-retry challenge (the dispatcher decides what it stores). The signature
// headers are not part of the request: a signed retry is the same request as its first call.
// Keys are scoped to the credential and the operation, kept 24 hours, and stored sealed (a stored
// response may hold a secret shown once, such as a new token's clientSecret).
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context/context.ts';
import { addMs } from '../shared/clock.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { conflict, unprocessable } from '../shared/errors.ts';
import { deleteResponsesBefore, findStoredResponse, storeResponse, tryLockKey, type KeyScope } from './idempotency.repository.ts';
import { sameText } from '../shared/constant-time.ts';

export type { KeyScope };

export const RETENTION_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What makes two requests the same: the operation, its decoded path parameters, query and body. */
export const requestFingerprint = (request: { operationId: string; path: object; query: object; body: unknown }): string =>
  createHash('sha256').update(canonicalJson({ operation: request.operationId, path: request.path, query: request.query, body: request.body ?? null })).digest('hex');

/**
 * Claims the key in the caller's transaction: returns the stored response to replay, or undefined
 * when the request is new and must run (its response then goes to `rememberResponse` in the same
 * transaction).
 */
export async function claimKey(ctx: ServiceContext, scope: KeyScope, fingerprint: string): Promise<StoredResponse | undefined> {
  if (!(await tryLockKey(ctx.db, scope))) throw conflict('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress.');
  const stored = await findStoredResponse(ctx.db, scope);
  if (stored === undefined || stored.createdAt.getTime() <= ctx.clock.now().getTime() - RETENTION_MS) return undefined;
  if (!sameText(stored.requestHash, fingerprint)) throw unprocessable('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
  return JSON.parse(ctx.keys.open(stored.response)) as StoredResponse;
}

export async function rememberResponse(ctx: ServiceContext, scope: KeyScope, fingerprint: string, response: StoredResponse): Promise<void> {
  await storeResponse(ctx.db, scope, fingerprint, ctx.keys.seal(JSON.stringify(response)), ctx.clock.now());
}

export async function idempotencyHousekeeping(ctx: ServiceContext): Promise<void> {
  await deleteResponsesBefore(ctx.db, addMs(ctx.clock.now(), -RETENTION_MS));
}
