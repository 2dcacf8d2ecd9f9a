// API token credentials: a random clientId and clientSecret; only SHA-256 of the secret is stored
// (the secret is 256 random bits, so a fast hash is enough) and compared in constant time.
import { hash, randomBytes } from 'node:crypto';
import { sameBytes } from '../shared/constant-time.ts';

export const newClientId = (): string => randomBytes(16).toString('hex');
export const newClientSecret = (): string => `sk_sandbox_${randomBytes(32).toString('base64url')}`;
// One-shot: every authenticated request hashes its secret, and a Hash object per call costs more (bench/README.md).
export const hashSecret = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** Compares digests, never the raw strings, so the comparison time does not depend on the input length. */
export const secretMatches = (secret: string, storedHash: Buffer): boolean => sameBytes(hashSecret(secret), storedHash);

/** Used when no token matches, so an unknown clientId costs the same as a wrong secret. */
export const DUMMY_HASH = hashSecret('no such token');
