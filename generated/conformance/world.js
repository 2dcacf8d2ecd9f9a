// What every check runs with: the implementation (requests checked against the contract), the run's
// unique prefix for the data it makes, what the implementation was found to offer, the webhook
// receiver, objects shared between checks, and what to undo at the end.
import { randomBytes, randomUUID } from 'node:crypto';
import { CheckFailure, expectations } from "./failure.js";
import { Http } from "./http.js";
export class World {
    http;
    prefix;
    otherPlatform;
    outcomeWaitMs;
    caps = { stateless: undefined, noSandbox: undefined, noWebhooks: undefined };
    webhooks;
    /** Why the webhook set-up failed in a way the webhook checks must report. */
    webhookProblem;
    shared = new Map();
    undo = [];
    is = expectations;
    constructor(options) {
        this.http = options.http;
        this.prefix = options.prefix;
        this.otherPlatform = options.otherPlatform;
        this.outcomeWaitMs = options.outcomeWaitMs;
    }
    /** A name unique to this run and call: `<prefix>-<8 hex>`. */
    uid() {
        return `${this.prefix}-${randomBytes(4).toString('hex')}`;
    }
    /** A new Idempotency-Key. */
    key() {
        return randomUUID();
    }
    /** A request as the kit's token (or `options.as`), its answer checked against the contract. */
    call(method, path, options) {
        return this.http.call(method, path, options);
    }
    /** The body of an answer that must have `status`; anything else fails the check with `rule`. */
    expect(reply, status, rule) {
        if (reply.status !== status)
            throw new CheckFailure(rule, `${status}`, `${reply.status} ${reply.text.slice(0, 300)}`, reply);
        return reply.body;
    }
    /** An error answer with this status and `code` (the errors guide's catalogue). */
    expectError(reply, status, code, rule) {
        const codes = Array.isArray(code) ? code : [code];
        const actual = reply.body?.code;
        if (reply.status !== status || !codes.includes(String(actual))) {
            throw new CheckFailure(rule, `${status} ${codes.join(' or ')}`, `${reply.status} ${String(actual ?? reply.text.slice(0, 200))}`, reply);
        }
    }
    /** `make` once per run under `key`, shared by every check that asks (a failure is shared too). */
    once(key, make) {
        let value = this.shared.get(key);
        if (value === undefined) {
            value = make();
            this.shared.set(key, value);
        }
        return value;
    }
    /** Something to undo when the run ends (deleting the tokens and agents it made, restoring the configuration). */
    cleanup(what, run) {
        this.undo.push({ what, run });
    }
    /** Undoes, last first; returns what could not be undone. */
    async finish() {
        const problems = [];
        for (const { what, run } of this.undo.reverse()) {
            try {
                await run();
            }
            catch (error) {
                problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
            }
        }
        this.undo.length = 0;
        return problems;
    }
    /** Polls `read` until `done` holds of its value, up to `timeoutMs`; returns the last value and whether it held. */
    async poll(read, done, timeoutMs = this.outcomeWaitMs, everyMs = 250) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const value = await read();
            if (done(value))
                return { value, met: true };
            if (Date.now() > deadline)
                return { value, met: false };
            await new Promise((r) => setTimeout(r, everyMs));
        }
    }
}
