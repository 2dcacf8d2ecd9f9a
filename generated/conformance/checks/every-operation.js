// Checks generated from the spec for every operation it names, so a new operation is checked without
// a new line here: credentials (401 without them, 403 without the permission, 429 once a clientId
// is locked out), input (400 naming the invalid field, 415 for another media type, 413 over the
// size limits) and 404 for an id that names nothing. Requests start from the operation's own
// examples and change one thing.
import { randomBytes } from 'node:crypto';
import { bodyTypesOf, operations, parametersOf, permissionOf, securityOf, statusesOf } from "../bundle.js";
import { exampleBody, exampleRequest, formOf, unknownValueOf } from "../example-request.js";
import { agent, agentWithout, sharedAgent, tokenWithout } from "../fixtures.js";
const UNKNOWN = 'conformanceUnknownField';
/** The caller an operation takes: the kit's token, a connected agent, or nobody. */
async function callerOf(t, op) {
    const security = securityOf(op);
    if (security === 'basic')
        return undefined;
    if (security === 'none')
        return 'anonymous';
    // A mock checks only that a bearer token is there.
    if (t.caps.stateless !== undefined)
        return { bearer: 'conformance-stateless-check' };
    return { bearer: (await sharedAgent(t)).accessToken };
}
const send = async (t, request, changes = {}) => t.call(request.method, request.path, { ...request.options, ...changes });
const documents = (op, status) => statusesOf(op).includes(status);
function unauthenticated(op) {
    const bearer = securityOf(op) === 'bearer';
    const reason = bearer ? 'Missing Bearer access token' : 'Missing Basic credentials';
    return {
        id: `auth.${op.operationId}.401`,
        operations: [op.operationId],
        status: 401,
        rule: `a request without credentials is refused: 401 UNAUTHORIZED, WWW-Authenticate ${bearer ? 'Bearer' : 'Basic'}, reason "${reason}" (authentication guide)`,
        tags: ['auth', 'credentials'],
        needs: [],
        async run(t) {
            const reply = await send(t, exampleRequest(op), { as: 'anonymous' });
            t.expectError(reply, 401, 'UNAUTHORIZED', `${op.operationId} refuses a request without credentials (authentication guide)`);
            t.is.equal(reply.body.reason, reason, `a 401 says why in \`reason\` (authentication guide)`, reply);
            const challenge = reply.headers.get('www-authenticate') ?? '';
            t.is.ok(challenge.toLowerCase().startsWith(bearer ? 'bearer' : 'basic'), 'WWW-Authenticate names the scheme the operation expects (spec: 401 headers)', bearer ? 'Bearer …' : 'Basic …', () => challenge, reply);
        },
    };
}
const sharedAgentOf = (t, name) => t.once(`agent-${name}`, () => agent(t));
/** A connected agent the platform paused (shared by the run). */
const pausedAgent = (t) => t.once('paused-agent', async () => {
    const agent = await sharedAgentOf(t, 'paused');
    t.expect(await t.call('PATCH', `/agents/${encodeURIComponent(agent.agentId)}`, { body: { isPaused: true } }), 200, 'updateAgent answers 200');
    return agent;
});
/** 403 for an agent operation any connected agent may call: the agent is paused. */
function paused(op) {
    if (securityOf(op) !== 'bearer' || permissionOf(op) !== 'ANY' || !documents(op, 403))
        return undefined;
    return {
        id: `auth.${op.operationId}.403`,
        operations: [op.operationId],
        status: 403,
        rule: 'a paused agent gets 403 AGENT_PAUSED on every operation until resumed (agents guide)',
        tags: ['auth', 'permissions'],
        needs: ['state'],
        async run(t) {
            const agent = await pausedAgent(t);
            const reply = await send(t, exampleRequest(op), { as: { bearer: agent.accessToken } });
            t.expectError(reply, 403, 'AGENT_PAUSED', `${op.operationId} refuses a paused agent`);
        },
    };
}
function forbidden(op) {
    const permission = permissionOf(op);
    const security = securityOf(op);
    if (permission === undefined || permission === 'ANY' || security === 'none')
        return paused(op);
    const agent = security === 'bearer';
    return {
        id: `auth.${op.operationId}.403`,
        operations: [op.operationId],
        status: 403,
        rule: agent
            ? `an agent whose policy lacks ${permission} gets 403 AGENT_PERMISSION_DENIED (agents guide)`
            : `a token without ${permission} gets 403 FORBIDDEN, before its request is validated (authentication guide)`,
        tags: ['auth', 'permissions'],
        needs: ['state'],
        async run(t) {
            const as = agent ? { bearer: (await agentWithout(t, permission)).accessToken } : { basic: await tokenWithout(t, permission) };
            const reply = await send(t, exampleRequest(op), { as });
            t.expectError(reply, 403, agent ? 'AGENT_PERMISSION_DENIED' : 'FORBIDDEN', `${op.operationId} needs ${permission}`);
        },
    };
}
/** The example request with one invalid part, and the field `details.errors` must name. */
function invalidRequest(op) {
    const request = exampleRequest(op);
    const [type] = bodyTypesOf(op);
    if (type === 'application/json') {
        const body = exampleBody(op, type);
        return { request, changes: { body: { ...body, [UNKNOWN]: true } }, field: `/${UNKNOWN}`, what: 'a body field the schema does not define' };
    }
    if (type === 'multipart/form-data') {
        const form = formOf((exampleBody(op, type) ?? {}));
        form.set('documentType', 'NOT_A_DOCUMENT_TYPE');
        return { request, changes: { form }, field: '/documentType', what: 'a documentType outside its enum' };
    }
    const pathParam = parametersOf(op).find((p) => p.in === 'path');
    if (pathParam !== undefined) {
        // A typed id has a pattern to miss; an opaque one (conventions guide) only its length bounds.
        const maxLength = pathParam.schema?.['pattern'] === undefined ? pathParam.schema?.['maxLength'] : undefined;
        if (typeof maxLength === 'number') {
            const bad = exampleRequest(op, { [pathParam.name]: 'x'.repeat(maxLength + 1) });
            return { request: bad, changes: {}, field: `path.${pathParam.name}`, what: `a ${pathParam.name} longer than its maxLength` };
        }
        const bad = exampleRequest(op, { [pathParam.name]: 'not-a-valid-value' });
        return { request: bad, changes: {}, field: `path.${pathParam.name}`, what: `a ${pathParam.name} of the wrong form` };
    }
    if (parametersOf(op).some((p) => p.in === 'query' && p.name === 'limit')) {
        return { request, changes: { query: { ...request.options.query, limit: 0 } }, field: 'query.limit', what: 'limit=0, below its minimum' };
    }
    if (parametersOf(op).some((p) => p.in === 'query')) {
        return { request, changes: { query: { ...request.options.query, [UNKNOWN]: '1' } }, field: `query.${UNKNOWN}`, what: 'a query parameter the operation does not define' };
    }
    return undefined;
}
function invalidInput(op) {
    if (!documents(op, 400))
        return undefined;
    const invalid = invalidRequest(op);
    if (invalid === undefined)
        return undefined;
    return {
        id: `input.${op.operationId}.400`,
        operations: [op.operationId],
        status: 400,
        rule: `an invalid request is refused with 400 INVALID_INPUT and \`details.errors\` naming each invalid field (errors guide), here ${invalid.what}: \`${invalid.field}\``,
        tags: ['input'],
        needs: [],
        async run(t) {
            const as = await callerOf(t, op);
            const reply = await send(t, invalid.request, { ...invalid.changes, ...(as === undefined ? {} : { as }) });
            t.expectError(reply, 400, 'INVALID_INPUT', `${op.operationId} refuses ${invalid.what} with 400 INVALID_INPUT (errors guide)`);
            const fields = (reply.body.details?.errors ?? []).map((e) => e.field);
            t.is.ok(fields.includes(invalid.field), '`details.errors` names each invalid field (errors guide: INVALID_INPUT)', `an entry for ${invalid.field}`, () => JSON.stringify(fields), reply);
        },
    };
}
/** The error code of an unknown object, by the path parameter naming it (errors guide). */
const NOT_FOUND = {
    tokenId: 'TOKEN_NOT_FOUND',
    customerId: 'CUSTOMER_NOT_FOUND',
    beneficialOwnerId: 'BENEFICIAL_OWNER_NOT_FOUND',
    documentId: 'DOCUMENT_NOT_FOUND',
    verificationId: 'VERIFICATION_NOT_FOUND',
    accountId: 'INTERNAL_ACCOUNT_NOT_FOUND',
    externalAccountId: 'EXTERNAL_ACCOUNT_NOT_FOUND',
    quoteId: 'QUOTE_NOT_FOUND',
    transactionId: 'TRANSACTION_NOT_FOUND',
    credentialId: 'CREDENTIAL_NOT_FOUND',
    sessionId: 'SESSION_NOT_FOUND',
    agentId: 'AGENT_NOT_FOUND',
    actionId: 'AGENT_ACTION_NOT_FOUND',
};
function notFound(op) {
    if (!documents(op, 404) || op.operationId === 'redeemAgentDeviceCode')
        return undefined;
    const params = parametersOf(op).filter((p) => p.in === 'path');
    // An unknown invitation code spends one of the platform's 10 look-ups (one back every 6 minutes,
    // errors guide): a run that made any would lock out the runs after it (README: what it leaves out).
    if (params.some((p) => p.name === 'invitationCode'))
        return undefined;
    // Only ids and codes have a form to make an unknown one of (an UMA address's 404 is the sandbox's).
    if (params.length === 0 || params.some((p) => unknownValueOf(op, p.name) === undefined))
        return undefined;
    // With every id unknown, the first one is what is not found.
    const code = NOT_FOUND[params[0]?.name ?? ''] ?? 'NOT_FOUND';
    return {
        id: `errors.${op.operationId}.404`,
        operations: [op.operationId],
        status: 404,
        rule: `an id that names nothing answers 404 ${code} (errors guide)`,
        tags: ['errors', 'not-found'],
        needs: ['state'],
        async run(t) {
            const values = Object.fromEntries(params.map((p) => [p.name, unknownValueOf(op, p.name) ?? '']));
            const as = await callerOf(t, op);
            const reply = await send(t, exampleRequest(op, values), as === undefined ? {} : { as });
            t.expectError(reply, 404, code, `${op.operationId} answers 404 ${code} for ${Object.values(values).join(', ')}, which names nothing (errors guide)`);
        },
    };
}
function mediaType(op) {
    if (!documents(op, 415) || bodyTypesOf(op).length === 0)
        return undefined;
    return {
        id: `input.${op.operationId}.415`,
        operations: [op.operationId],
        status: 415,
        rule: `a body of another media type than ${bodyTypesOf(op).join(', ')} is refused with 415 UNSUPPORTED_MEDIA_TYPE (errors guide)`,
        tags: ['input', 'limits'],
        needs: [],
        async run(t) {
            const as = await callerOf(t, op);
            const { method, path, options } = exampleRequest(op);
            const reply = await t.call(method, path, { query: options.query ?? {}, raw: { body: 'name=x', contentType: 'text/plain' }, ...(as === undefined ? {} : { as }) });
            t.expectError(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', `${op.operationId} takes only ${bodyTypesOf(op).join(', ')}`);
        },
    };
}
function tooLarge(op) {
    if (!documents(op, 413))
        return undefined;
    const [type] = bodyTypesOf(op);
    if (type === undefined)
        return undefined;
    const multipart = type === 'multipart/form-data';
    return {
        id: `input.${op.operationId}.413`,
        operations: [op.operationId],
        status: 413,
        rule: multipart ? 'an uploaded file over 10 MiB is refused with 413 FILE_TOO_LARGE (errors guide)' : 'a JSON body over 1 MB is refused with 413 PAYLOAD_TOO_LARGE (errors guide)',
        tags: ['input', 'limits'],
        // A mock of the spec enforces its schemas, not the implementation's size limits.
        needs: ['state'],
        async run(t) {
            const as = await callerOf(t, op);
            const { method, path, options } = exampleRequest(op);
            let changes;
            if (multipart) {
                const form = formOf((exampleBody(op, type) ?? {}));
                form.set('file', new Blob([new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25)], { type: 'application/pdf' }), 'large.pdf');
                changes = { form };
            }
            else {
                changes = { body: { [UNKNOWN]: 'x'.repeat(1_100_000) } };
            }
            const reply = await t.call(method, path, { query: options.query ?? {}, ...changes, ...(as === undefined ? {} : { as }) });
            t.expectError(reply, 413, multipart ? 'FILE_TOO_LARGE' : 'PAYLOAD_TOO_LARGE', `${op.operationId} refuses a body over its limit`);
        },
    };
}
/** A clientId that failed authentication 10 times from this address (shared by the run). */
const lockedClientId = (t) => t.once('locked-client-id', async () => `Basic ${Buffer.from(`${randomBytes(16).toString('hex')}:wrong-secret`).toString('base64')}`);
/**
 * The locked-out clientId's Authorization, locked now: the address gets an attempt back every 30
 * seconds (authentication guide), so a long run locks it again with wrong secrets, each a 401,
 * until one answers 429 (10 the first time, one after each attempt given back).
 */
async function lockedOut(t) {
    const authorization = await lockedClientId(t);
    for (let i = 0; i <= 10; i++) {
        const reply = await t.call('GET', '/config', { as: { authorization } });
        if (reply.status === 429)
            return authorization;
        t.expectError(reply, 401, 'UNAUTHORIZED', 'a wrong secret is refused with 401 UNAUTHORIZED (authentication guide)');
    }
    t.expectError(await t.call('GET', '/config', { as: { authorization } }), 429, 'TOO_MANY_FAILED_AUTHENTICATIONS', 'after 10 wrong secrets from one address, the clientId is locked out there (authentication guide)');
    return authorization;
}
function lockout(op) {
    if (!documents(op, 429) || securityOf(op) !== 'basic')
        return undefined;
    return {
        id: `auth.${op.operationId}.429`,
        operations: [op.operationId],
        status: 429,
        rule: 'after 10 failed authentications of one clientId from one address, its requests from there get 429 TOO_MANY_FAILED_AUTHENTICATIONS with Retry-After (at most 30 s) until an attempt comes back (authentication guide)',
        tags: ['auth', 'lockout'],
        needs: ['state'],
        async run(t) {
            // An attempt given back between the lock and the request is judged (a 401): lock again.
            let reply = await send(t, exampleRequest(op), { as: { authorization: await lockedOut(t) } });
            for (let again = 0; again < 3 && reply.status === 401; again++)
                reply = await send(t, exampleRequest(op), { as: { authorization: await lockedOut(t) } });
            t.expectError(reply, 429, 'TOO_MANY_FAILED_AUTHENTICATIONS', `${op.operationId} refuses a locked-out clientId`);
            const retryAfter = Number(reply.headers.get('retry-after'));
            t.is.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30, 'Retry-After gives the seconds until an attempt comes back (authentication guide)', 'an integer from 1 to 30', () => String(reply.headers.get('retry-after')), reply);
        },
    };
}
/**
 * The sandbox's own operations (tag Sandbox) answer a production token 403 SANDBOX_ONLY before
 * looking at the request, so their checks need the sandbox; POST /sandbox/webhooks/test works with
 * a production token too (its description says so).
 */
const sandboxOnly = (op) => (op.operation.tags ?? []).includes('Sandbox') && op.operationId !== 'sendSandboxTestWebhook';
/** Every check generated over the operations of the spec. */
export function everyOperationChecks() {
    const out = [];
    for (const op of operations) {
        const checks = [
            securityOf(op) === 'none' ? undefined : unauthenticated(op),
            forbidden(op),
            invalidInput(op),
            mediaType(op),
            tooLarge(op),
            notFound(op),
            lockout(op),
        ];
        for (const check of checks) {
            if (check === undefined)
                continue;
            // Without credentials (401) and locked out (429) come before the sandbox's own 403.
            const needsSandbox = sandboxOnly(op) && !check.id.endsWith('.401') && !check.id.endsWith('.429');
            out.push({ ...check, needs: needsSandbox ? [...check.needs, 'sandbox'] : check.needs, tags: [...check.tags, 'every-operation'] });
        }
    }
    return out;
}
