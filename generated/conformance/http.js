// The kit's requests: plain fetch against the implementation's base URL, so every answer is seen as
// it was sent (no retries, no client-side defaults), and each one checked against the contract
// before the check reads it. A check sees a Reply; a contract violation fails the check at once.
import { findOperation } from "./bundle.js";
import { answerViolations } from "./contract.js";
import { curlOf } from "./curl.js";
import { CheckFailure } from "./failure.js";
import { StatusHistory } from "./status-history.js";
export const basic = ({ clientId, clientSecret }) => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
function authorization(caller) {
    if (caller === 'anonymous')
        return undefined;
    if ('basic' in caller)
        return basic(caller.basic);
    if ('bearer' in caller)
        return `Bearer ${caller.bearer}`;
    return caller.authorization;
}
export class Http {
    baseUrl;
    options;
    /** Every status read of the run, whichever check read it. */
    statuses = new StatusHistory();
    constructor(options) {
        this.options = options;
        this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    }
    /** Sends a request and checks its answer against the contract; throws a CheckFailure on a violation. */
    async call(method, path, options = {}) {
        const sentAt = Date.now();
        const reply = await this.send(method, path, options);
        this.enforce(reply);
        const regression = this.statuses.see(reply, sentAt, Date.now());
        if (regression !== undefined)
            throw new CheckFailure(regression.rule, 'a status its earlier reads can lead to', regression.problem, reply);
        return reply;
    }
    /** Fails with the first contract violation of an answer. */
    enforce(reply) {
        const op = findOperation(reply.method, reply.path.split('?')[0] ?? '');
        if (op === undefined)
            throw new CheckFailure('requests of the kit are operations of the contract', `an operation at ${reply.method} ${reply.path}`, 'none', reply);
        const firstPage = reply.method === 'GET' && !new URLSearchParams(reply.path.split('?')[1] ?? '').has('cursor');
        const [violation] = answerViolations(op, reply.status, reply.headers, reply.text, firstPage);
        if (violation !== undefined)
            throw new CheckFailure(violation.rule, 'an answer the contract allows', violation.problem, reply);
    }
    /** Sends a request and returns its answer unchecked (for answers checked by the caller). */
    async send(method, path, options = {}) {
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(options.query ?? {}))
            if (v !== undefined)
                search.set(k, String(v));
        const relative = `${path}${search.size > 0 ? `?${search}` : ''}`;
        const headers = {};
        const auth = authorization(options.as ?? { basic: this.options.credentials });
        if (auth !== undefined)
            headers.Authorization = auth;
        let body;
        if (options.body !== undefined) {
            headers['Content-Type'] = 'application/json';
            body = JSON.stringify(options.body);
        }
        else if (options.form !== undefined) {
            body = options.form;
        }
        else if (options.raw !== undefined) {
            if (options.raw.contentType !== undefined)
                headers['Content-Type'] = options.raw.contentType;
            body = options.raw.body;
        }
        if (options.key !== undefined)
            headers['Idempotency-Key'] = options.key;
        Object.assign(headers, options.headers);
        const send = this.options.fetch ?? fetch;
        let response;
        const where = `${method} ${relative}`;
        try {
            response = await send(`${this.baseUrl}${relative}`, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual', signal: AbortSignal.timeout(this.options.timeoutMs) });
        }
        catch (error) {
            const cause = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
            throw new CheckFailure('the implementation answers every request', `an answer to ${where}`, `no answer: ${cause}`);
        }
        const text = await response.clone().text();
        let parsed;
        try {
            parsed = text === '' ? undefined : JSON.parse(text);
        }
        catch {
            parsed = undefined;
        }
        const requestId = response.headers.get('x-request-id');
        const sent = { method, url: `${this.baseUrl}${relative}`, headers: { ...headers } };
        if (options.body !== undefined)
            sent.body = JSON.stringify(options.body);
        else if (options.raw !== undefined)
            sent.body = typeof options.raw.body === 'string' ? options.raw.body : `<${options.raw.body.byteLength} bytes>`;
        else if (options.form !== undefined)
            sent.form = [...options.form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : { fileName: value.name, type: value.type }]);
        const op = findOperation(method, path);
        const reply = {
            method,
            path: relative,
            operationId: op?.operationId,
            status: response.status,
            headers: response.headers,
            text,
            body: parsed,
            requestId,
            summary: `${where} → ${response.status}${requestId === null ? ', no X-Request-Id' : `, X-Request-Id: ${requestId}`}`,
            request: sent,
            curl: curlOf(sent, this.options.redactions ?? []),
        };
        await this.options.onAnswer?.(reply, response);
        return reply;
    }
}
