// How a check fails: with the rule it checks, what was expected, what came back, and the request that
// got it (with its X-Request-Id, to find it in the implementation's logs); and how it is skipped.
import { isDeepStrictEqual } from 'node:util';
/** A check that found the implementation breaking a rule. */
export class CheckFailure extends Error {
    name = 'CheckFailure';
    rule;
    expected;
    actual;
    reply;
    constructor(rule, expected, actual, reply) {
        super(`${rule}: expected ${expected}, got ${actual}${reply === undefined ? '' : ` (${reply.summary})`}`);
        this.rule = rule;
        this.expected = expected;
        this.actual = actual;
        this.reply = reply;
    }
}
/** A check that cannot run here, for a reason found only while it runs (e.g. a value the deployment lacks). */
export class CheckSkipped extends Error {
    name = 'CheckSkipped';
}
const show = (value) => {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 400 ? `${text.slice(0, 400)}…` : text;
};
/** Whether `actual` holds every field of `expected`, recursively (an array: as many items, each holding its counterpart's fields). */
export function contains(actual, expected) {
    if (Array.isArray(expected))
        return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => contains(actual[i], item));
    if (expected === null || typeof expected !== 'object')
        return isDeepStrictEqual(actual, expected);
    if (actual === null || typeof actual !== 'object')
        return false;
    return Object.entries(expected).every(([k, v]) => contains(actual[k], v));
}
export const expectations = {
    ok(condition, rule, expected, actual, reply) {
        if (!condition)
            throw new CheckFailure(rule, expected, actual(), reply);
    },
    equal(actual, expected, rule, reply) {
        if (!isDeepStrictEqual(actual, expected))
            throw new CheckFailure(rule, show(expected), show(actual), reply);
    },
    contains(actual, expected, rule, reply) {
        if (!contains(actual, expected))
            throw new CheckFailure(rule, `at least ${show(expected)}`, show(actual), reply);
    },
    show,
};
