// Comparisons of secrets and of what derives from them (digests, MACs, signatures, codes, the
// fingerprints that bind a request) take a time that does not depend on where the two differ.
// contract-tests/static/constant-time.test.ts finds any other comparison of such values.
import { hash, timingSafeEqual } from 'node:crypto';

/** Equal bytes; buffers of different lengths differ at once (a length is not the secret). */
export const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** Equal texts, compared as SHA-256 digests of equal length, so neither their content nor their length shows in the time. */
export const sameText = (a: string, b: string): boolean => timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
