// Runs the selected checks against an implementation: probes what it offers, skips with their
// reason the checks that need what it does not, runs the others a few at a time (each bounded in
// time), and undoes what the run changed. Used by the command (cli.ts) and by the contract suite.
import { randomBytes } from 'node:crypto';
import { operations, statusesOf } from "./bundle.js";
import { CheckFailure, CheckSkipped } from "./check.js";
import { Http } from "./http.js";
import { preflight, probeSandbox, probeState, setUpWebhooks } from "./probes.js";
import { World } from "./world.js";
import { offersClock } from "./time.js";
/**
 * A result as the expected failures have it: a listed check that failed is `expected`; one that
 * passed fails the run, so that the file only ever shrinks (a fixed check must leave it).
 */
export function judged(result, expected) {
    if (expected === undefined || !expected.ids.has(result.check.id))
        return result;
    if (result.outcome === 'failed')
        return { ...result, outcome: 'expected' };
    if (result.outcome !== 'passed')
        return result;
    const failure = new CheckFailure(`a check listed as an expected failure passes: remove it from ${expected.file}, so that it stays passing (--expected-failures)`, `a failure, as ${expected.file} lists`, 'it passed');
    return { ...result, outcome: 'failed', failure };
}
/** Whether a check is named by one of `names`: its id or a prefix of it (`customers.`), a tag, an operationId. */
export const matches = (check, names) => names.some((n) => check.id === n || check.id.startsWith(`${n}.`) || check.tags.includes(n) || check.operations.includes(n));
export function select(checks, only = [], skip = []) {
    return checks.filter((c) => (only.length === 0 || matches(c, only)) && !matches(c, skip));
}
/** Why a check cannot run here, or undefined. */
function skipReason(check, t, options, clock = false) {
    const reasons = {
        state: () => (t.caps.stateless === undefined ? undefined : `needs a stateful implementation: ${t.caps.stateless}`),
        sandbox: () => (t.caps.noSandbox === undefined ? undefined : `needs the sandbox: ${t.caps.noSandbox}`),
        webhooks: () => (t.caps.noWebhooks === undefined ? undefined : `needs webhooks: ${t.caps.noWebhooks}`),
        'second-platform': () => (options.otherPlatform === undefined ? 'needs an API token of a second platform of the deployment (--other-client-id, --other-client-secret)' : undefined),
        slow: () => (options.skipSlow === true ? 'waits up to a minute for a sandbox outcome (--skip-slow)' : undefined),
        minutes: () => (options.waitMinutes === true || clock ? undefined : 'waits minutes for a sandbox outcome (run with --wait-minutes, or against a deployment with the sandbox clock)'),
    };
    // A stateless implementation is the first reason to give: the others follow from it.
    const order = ['state', 'sandbox', 'second-platform', 'webhooks', 'minutes', 'slow'];
    for (const need of order) {
        if (!check.needs.includes(need))
            continue;
        const reason = reasons[need]();
        if (reason !== undefined)
            return reason;
    }
    return undefined;
}
async function runOne(check, t) {
    const started = Date.now();
    const timeoutMs = check.timeoutMs ?? 60_000;
    let timer;
    const timeout = new Promise((_, fail) => {
        timer = setTimeout(() => fail(new CheckFailure(`the check completes within ${timeoutMs / 1000} s`, 'an outcome', 'still waiting')), timeoutMs);
    });
    try {
        await Promise.race([check.run(t), timeout]);
        return { check, outcome: 'passed', ms: Date.now() - started };
    }
    catch (error) {
        if (error instanceof CheckSkipped)
            return { check, outcome: 'skipped', reason: error.message, ms: Date.now() - started };
        return { check, outcome: 'failed', failure: error instanceof Error ? error : new Error(String(error)), ms: Date.now() - started };
    }
    finally {
        clearTimeout(timer);
    }
}
export async function runConformance(checks, options) {
    const started = Date.now();
    const prefix = options.prefix ?? `conformance-${randomBytes(4).toString('hex')}`;
    const seen = new Set();
    const http = new Http({
        baseUrl: options.baseUrl,
        credentials: options.credentials,
        timeoutMs: options.requestTimeoutMs ?? 30_000,
        redactions: [
            { secret: options.credentials.clientSecret, variable: 'PAYMENTS_CLIENT_SECRET' },
            ...(options.otherPlatform === undefined ? [] : [{ secret: options.otherPlatform.clientSecret, variable: 'PAYMENTS_OTHER_CLIENT_SECRET' }]),
        ],
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        onAnswer: async (reply, response) => {
            if (reply.operationId !== undefined)
                seen.add(`${reply.operationId} ${reply.status}`);
            await options.onAnswer?.(reply, response);
        },
    });
    const t = new World({ http, prefix, otherPlatform: options.otherPlatform, outcomeWaitMs: options.outcomeWaitMs ?? 20_000 });
    options.onUndo?.(() => t.finish());
    const results = [];
    const record = (result) => {
        results.push(result);
        options.onResult?.(result);
    };
    let cleanupProblems = [];
    try {
        await preflight(t, options.credentials);
        if (options.stateless === true) {
            t.caps.stateless = 'declared with --stateless';
        }
        else {
            const state = await probeState(t);
            t.caps.stateless = state.stateless;
            if (state.customer !== undefined)
                t.caps.noSandbox = await probeSandbox(t, state.customer);
        }
        // The webhook set-up changes the platform's configuration: only when a check will use it.
        const wantWebhooks = checks.some((c) => c.needs.includes('webhooks') && skipReason(c, t, options) === undefined);
        if (wantWebhooks) {
            const webhooks = await setUpWebhooks(t, { host: options.webhook?.host ?? '127.0.0.1', port: options.webhook?.port ?? 0, url: options.webhook?.url, secret: options.webhook?.secret });
            t.caps.noWebhooks = webhooks.skip;
        }
        // With the sandbox clock (time.ts), the checks of outcomes due minutes later advance it instead of
        // waiting: they run alone, after the others, whose objects must not age under them.
        const clock = t.caps.stateless === undefined && t.caps.noSandbox === undefined && checks.some((c) => c.needs.includes('minutes')) && (await offersClock(t));
        const advancing = clock ? checks.filter((c) => c.needs.includes('minutes')) : [];
        const rest = checks.filter((c) => !advancing.includes(c));
        // The checks that wait longest first, so that they wait while the others run.
        const queue = [...rest.filter((c) => c.needs.includes('slow') || c.needs.includes('minutes')), ...rest.filter((c) => !c.needs.includes('slow') && !c.needs.includes('minutes'))];
        const worker = async (from) => {
            for (let check = from.shift(); check !== undefined; check = from.shift()) {
                const reason = skipReason(check, t, options, clock);
                record(judged(reason === undefined ? await runOne(check, t) : { check, outcome: 'skipped', reason, ms: 0 }, options.expectedFailures));
            }
        };
        await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, () => worker(queue)));
        await worker(advancing);
    }
    finally {
        cleanupProblems = await t.finish();
    }
    // In the order of the checks, not of their ends.
    const order = new Map(checks.map((c, i) => [c.id, i]));
    results.sort((a, b) => (order.get(a.check.id) ?? 0) - (order.get(b.check.id) ?? 0));
    const successes = operations.flatMap((op) => statusesOf(op).filter((status) => status < 300).map((status) => `${op.operationId} ${status}`));
    const missing = successes.filter((pair) => !seen.has(pair));
    return {
        prefix,
        successes: { documented: successes.length, produced: successes.length - missing.length, missing },
        capabilities: t.caps,
        results,
        cleanupProblems,
        ...(options.expectedFailures === undefined ? {} : { expectedFailuresFile: options.expectedFailures.file }),
        ms: Date.now() - started,
    };
}
