// What the implementation offers, found before the checks run, so that a check it cannot pass for
// want of something optional is skipped with the reason instead of failing: whether it keeps state
// (a mock does not), whether the sandbox operations answer, and whether it can deliver webhooks to
// the kit's receiver. Nothing here passes a check: a probe that finds a broken rule leaves it to the
// checks to fail.
import { CheckFailure } from "./check.js";
import { hub, startReceiver } from "./webhook-hub.js";
/** Fails the whole run: the kit cannot talk to the implementation at all. */
export class FatalError extends Error {
    name = 'FatalError';
}
/** The credentials reach the API: GET /config answers 200. */
export async function preflight(t, credentials) {
    const config = await t.http.send('GET', '/config').catch((error) => {
        throw new FatalError(`cannot reach ${t.http.baseUrl}: ${error instanceof CheckFailure ? error.actual : error instanceof Error ? error.message : String(error)}`);
    });
    if (config.status === 401 || config.status === 403) {
        throw new FatalError(`GET /config answered ${config.status} to the token ${credentials.clientId}: the kit needs an API token with MANAGE, TRANSACT and VIEW (${config.text.slice(0, 200)})`);
    }
    if (config.status === 404 && config.body?.code !== 'ROUTE_NOT_FOUND') {
        throw new FatalError(`GET ${t.http.baseUrl}/config answered 404: is --base-url the API's base URL, version included (https://host/2025-10-13)?`);
    }
}
/**
 * Whether the implementation keeps what it is sent. A mock answers its examples: a customer created
 * with a unique platformCustomerId comes back without it. Only that makes the kit take an
 * implementation for stateless: any other surprise (another status, ids of another form, a read
 * that fails) is left to the checks, which fail on it, instead of skipping them.
 */
export async function probeState(t) {
    const platformCustomerId = t.uid();
    const created = await t.http.send('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Conformance Probe', currencies: ['USD'] }, key: t.key() });
    const body = created.body;
    if (created.status >= 200 && created.status < 300 && !created.text.includes(platformCustomerId)) {
        return { stateless: `POST /customers answered ${created.status} without the platformCustomerId it was sent (the answers do not follow the requests: a mock?)`, customer: undefined };
    }
    return { stateless: undefined, customer: body?.platformCustomerId === platformCustomerId ? body : undefined };
}
/** Whether the sandbox operations answer the kit's token: funding the probe customer's account. */
export async function probeSandbox(t, customer) {
    const accounts = await t.http.send('GET', '/customers/internal-accounts', { query: { customerId: String(customer.id), currency: 'USD' } });
    const account = (accounts.body?.data ?? [])[0];
    if (account === undefined)
        return undefined; // the checks will say what is wrong with the accounts
    const funded = await t.http.send('POST', `/sandbox/internal-accounts/${encodeURIComponent(String(account.id))}/fund`, { body: { amount: 1 }, key: t.key() });
    const code = funded.body?.code;
    if (funded.status === 403 && code === 'SANDBOX_ONLY')
        return 'the token is not a sandbox token: POST /sandbox/... answered 403 SANDBOX_ONLY';
    if (funded.status === 404 && code === 'ROUTE_NOT_FOUND')
        return 'the deployment has no sandbox operations (404 ROUTE_NOT_FOUND on POST /sandbox/internal-accounts/{accountId}/fund)';
    return undefined;
}
/** The endpoint each run set, and why it no longer holds it once another client changed it. */
const claims = new WeakMap();
/**
 * Why the run no longer holds the platform's webhook endpoint, or undefined while it does (or never
 * set one). One endpoint a platform: another client that sets it (another run of the kit on the
 * same platform, last writer wins) gets the deliveries from then on, and the webhook checks of this
 * run are skipped with that reason instead of failing. Read anew until lost: lost, it stays lost.
 */
export async function endpointTaken(t) {
    const claim = claims.get(t);
    if (claim === undefined || claim.taken !== undefined)
        return claim?.taken;
    const config = await t.http.send('GET', '/config');
    if (config.status !== 200)
        return undefined; // the config checks fail on it
    const now = config.body?.webhookEndpoint;
    if (now !== claim.url)
        claim.taken = takenBy(now);
    return claim.taken;
}
const takenBy = (endpoint) => `another client set the platform's webhook endpoint to ${typeof endpoint === 'string' ? endpoint : 'none'} during the run (another run of the kit on this platform at the same time?): the webhooks go there, so the webhook checks are left to the run that holds it (give runs at once platforms of their own to run them all)`;
/**
 * Points the platform's webhooks at the kit's receiver for the run (and back afterwards, unless
 * another client has set it since). The implementation must then reach the receiver: POST
 * /sandbox/webhooks/test reports what it answered.
 */
export async function setUpWebhooks(t, options) {
    const config = await t.http.send('GET', '/config');
    if (config.status !== 200)
        return {}; // the config checks fail on their own; the webhook checks fail on the missing hub
    const previous = config.body.webhookEndpoint;
    if (previous !== undefined && options.secret === undefined) {
        return {
            skip: `the platform already sends webhooks to ${previous} (another run of the kit on this platform at the same time?): give its signing secret (--webhook-secret or PAYMENTS_WEBHOOK_SECRET) so the kit can verify signatures without rotating it, or remove the endpoint`,
        };
    }
    const path = `/webhooks/${t.prefix}`;
    const receiver = await startReceiver(options.host, options.port, path);
    const url = options.url ?? receiver.listening;
    const set = await t.http.send('PATCH', '/config', { body: { webhookEndpoint: url } });
    if (set.status === 400) {
        await receiver.close();
        return { skip: `the implementation refuses ${url} as the webhook endpoint (${set.text.slice(0, 200)}): give --webhook-url an address it accepts that reaches the receiver` };
    }
    const claim = { url };
    claims.set(t, claim);
    // Put back at the end only while the run still holds it: a later writer's endpoint is theirs.
    t.cleanup('restoring the webhook endpoint', async () => {
        if ((await endpointTaken(t)) !== undefined)
            return;
        const restored = await t.http.send('PATCH', '/config', { body: { webhookEndpoint: previous ?? null } });
        if (restored.status !== 200)
            throw new Error(`PATCH /config answered ${restored.status}: ${restored.text.slice(0, 200)}`);
    });
    t.cleanup('stopping the webhook receiver', () => receiver.close());
    let shown = set.status === 200 ? set.body?.webhookSigningSecret : undefined;
    if (set.status === 200 && previous === undefined && shown === undefined) {
        // No endpoint when read, yet setting one showed no secret: another client set one in between (a
        // run started at the same moment) and its answer showed the secret. This write came last, so
        // the endpoint is this run's; a new secret makes it verifiable (the other run finds it taken).
        const rotated = await t.http.send('PATCH', '/config', { body: { rotateWebhookSigningSecret: true } });
        shown = rotated.status === 200 ? rotated.body?.webhookSigningSecret : undefined;
    }
    const secret = previous === undefined ? shown : options.secret;
    if (set.status !== 200 || secret === undefined) {
        // The webhook checks fail on this: setting the first endpoint must answer its secret.
        t.webhookProblem = `PATCH /config {webhookEndpoint} answered ${set.status} ${secret === undefined ? 'without a webhookSigningSecret' : ''} (${set.summary}): the first endpoint's answer shows its signing secret (spec: PlatformConfig.webhookSigningSecret)`;
        return { receiver };
    }
    // Read back: another run that set it after this one holds it now (last writer wins); no endpoint,
    // or the one before, is the implementation not keeping what it was set to.
    const back = await t.http.send('GET', '/config');
    const reads = back.status === 200 ? back.body.webhookEndpoint : url;
    if (reads !== url && (typeof reads !== 'string' || reads === previous)) {
        t.webhookProblem = `PATCH /config {webhookEndpoint: ${url}} answered ${set.status}, yet GET /config then read ${typeof reads === 'string' ? reads : 'no endpoint'} (${back.summary}): the configuration keeps the endpoint it is set to`;
        return { receiver };
    }
    if (reads !== url) {
        claim.taken = takenBy(reads);
        return { skip: claim.taken, receiver };
    }
    const tested = await t.http.send('POST', '/sandbox/webhooks/test');
    const reached = tested.body?.response_status;
    if (tested.status === 200 && reached === 0) {
        return { skip: `the implementation cannot reach the kit's receiver at ${url} (POST /sandbox/webhooks/test: response_status 0): run the kit where the implementation can reach it, or give --webhook-url / --webhook-host / --webhook-port` };
    }
    t.webhooks = hub(receiver, url, secret, previous === undefined);
    return { receiver };
}
