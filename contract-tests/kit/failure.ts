// How a check fails: with the rule it checks, what was expected, what came back, and the request that
// got it (with its X-Request-Id, to find it in the implementation's logs); and how it is skipped.
import { isDeepStrictEqual } from 'node:util';
import type { Reply } from './reply.ts';

/** A check that found the implementation breaking a rule. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  readonly rule: string;
  readonly expected: string;
  readonly actual: string;
  readonly reply: Reply | undefined;
  constructor(rule: string, expected: string, actual: string, reply?: Reply) {
    super(`${rule}: expected ${expected}, got ${actual}${reply === undefined ? '' : ` (${reply.summary})`}`);
    this.rule = rule;
    this.expected = expected;
    this.actual = actual;
    this.reply = reply;
  }
}

/** A check that cannot run here, for a reason found only while it runs (e.g. a value the deployment lacks). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/** Whether `actual` holds every field of `expected`, recursively (an array: as many items, each holding its counterpart's fields). */
export function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => contains(actual[i], item));
  if (expected === null || typeof expected !== 'object') return isDeepStrictEqual(actual, expected);
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

/** The assertions of a check; each names its rule. */
export interface Expectations {
  ok(condition: boolean, rule: string, expected: string, actual: () => string, reply?: Reply): void;
  equal(actual: unknown, expected: unknown, rule: string, reply?: Reply): void;
  contains(actual: unknown, expected: unknown, rule: string, reply?: Reply): void;
  show(value: unknown): string;
}

export const expectations: Expectations = {
  ok(condition, rule, expected, actual, reply) {
    if (!condition) throw new CheckFailure(rule, expected, actual(), reply);
  },
  equal(actual, expected, rule, reply) {
    if (!isDeepStrictEqual(actual, expected)) throw new CheckFailure(rule, show(expected), show(actual), reply);
  },
  contains(actual, expected, rule, reply) {
    if (!contains(actual, expected)) throw new CheckFailure(rule, `at least ${show(expected)}`, show(actual), reply);
  },
  show,
};
