// Secrets and what derives from them (digests, MACs, signatures, codes, challenges, request
// fingerprints) are compared in constant time everywhere in the server: through
// server/shared/constant-time.ts (crypto.timingSafeEqual on equal-length buffers), never with === or
// !==, whose time tells a guesser how much of its guess matches. A comparison is found by the names
// of its operands; one with undefined, null, a literal or a length is not a comparison of secrets.
import { describe, expect, it } from 'vitest';
import { serverSources } from '../support/server-sources.ts';

const SENSITIVE = /secret|digest|hash|sha\d|signature|otp|mac\b|challenge|magic|password|fingerprint/i;
const OPERAND = String.raw`[\w$.?\[\]]+(?:\([^()]*\))?(?:\.[\w$]+)*`;
const COMPARISON = new RegExp(String.raw`(${OPERAND})\s*[!=]==?\s*(${OPERAND}|'[^']*'|"[^"]*")`, 'g');
const harmless = (operand: string): boolean => /^(undefined|null|true|false|\d+|'[^']*'|"[^"]*")$/.test(operand) || /\.(length|size|type|kind|status)$/.test(operand);

/** The comparisons by === or !== of what names a secret or its digest in `source`, as `line: text`. */
function plainComparisons(source: string): string[] {
  return source.split('\n').flatMap((line, i) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
    return [...line.matchAll(COMPARISON)]
      .filter(([, a = '', b = '']) => !harmless(a) && !harmless(b) && (SENSITIVE.test(a) || SENSITIVE.test(b)))
      .map((m) => `${i + 1}: ${m[0]}`);
  });
}

describe('constant-time comparison of secrets and their digests', () => {
  it('finds the comparisons it forbids, and lets through those that hold no secret', () => {
    expect(plainComparisons('    return secretDigest(secret) === entry.digest ? entry.principal : undefined;')).toHaveLength(1);
    expect(plainComparisons("if (stored.requestHash !== fingerprint) throw unprocessable('X', 'y');")).toHaveLength(1);
    expect(plainComparisons('return value === SANDBOX_MAGIC_VALUES[field].value ? ok : failure(field);')).toHaveLength(1);
    expect(plainComparisons('if (stripPadding(answered) !== stripPadding(challenge)) return no;')).toHaveLength(1);
    expect(plainComparisons('const live = credential.otp_hash !== null && hash.length === 32;')).toEqual([]);
    expect(plainComparisons("if (check.failure === 'INVALID_SIGNATURE') throw x;")).toEqual([]);
    expect(plainComparisons('// secret === digest, in a comment')).toEqual([]);
  });

  it('no server file compares one with === or !==', () => {
    const found = serverSources.flatMap((file) => plainComparisons(file.source).map((at) => `server/${file.path}:${at}`));
    expect(found).toEqual([]);
  });
});
