// Idempotency-Key semantics (IETF draft): same key and request → stored response; same key and a
// different request → 422; same key while the first is running → 409; 5xx is never stored. Keys
// are scoped to the credential and the operation and kept 24 hours.
import { createHash } from 'node:crypto';
import { claimKey, completeKey, findKey, reclaimKey, releaseKey, type KeyScope } from '../db/idempotency.repository.ts';
import type { Db } from '../db/database.ts';
import { canonicalJson } from './canonical-json.ts';
import { ApiError, conflict } from './errors.ts';
import { now } from './ids.ts';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** An IN_FLIGHT claim older than this belongs to a crashed request and may be taken over. */
const ABANDONED_MS = 60 * 1000;

export const requestHash = (method: string, path: string, body: unknown): string =>
  createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

export async function claim(db: Db, scope: KeyScope, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    if (await claimKey(db, scope, hash, at)) return { kind: 'claimed' };
    const stored = await findKey(db, scope);
    if (stored === undefined) continue; // released between the two statements: try again
    const age = at.getTime() - stored.createdAt.getTime();
    const expired = age > RETENTION_MS;
    if (!expired && stored.requestHash !== hash) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    if (!expired && stored.state === 'DONE') return { kind: 'replay', status: stored.status ?? 200, body: stored.body };
    const abandoned = stored.state === 'IN_FLIGHT' && at.getTime() - stored.lockedAt.getTime() > ABANDONED_MS;
    if (!expired && !abandoned) throw conflict('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress.');
    if (await reclaimKey(db, scope, stored.lockedAt, hash, at)) return { kind: 'claimed' };
  }
  throw conflict('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress.');
}

export const complete = completeKey;
export const release = releaseKey;
