// The clients: openapi-fetch bound to the generated `paths` (a wrong path, method, parameter or
// body is a compile error), with credentials, automatic Idempotency-Keys, retries and a timeout.
import createClient, {} from 'openapi-fetch';
import { basicAuth, bearerAuth } from './auth.js';
import { idempotencyKeys } from './idempotency.js';
import { resilientFetch } from './retry.js';
/** The API version this package describes; base URLs end with it. */
export const API_VERSION = '2025-10-13';
function buildClient(options, auth) {
    const { retry, timeoutMs = 30_000, idempotencyKeys: autoKeys = true, fetch: send = (request) => globalThis.fetch(request), ...rest } = options;
    const client = createClient({
        ...rest,
        fetch: resilientFetch(send, { ...(retry === false ? { maxRetries: 0 } : retry), timeoutMs: timeoutMs === false ? undefined : timeoutMs }),
    });
    if (auth !== undefined)
        client.use(auth);
    if (autoKeys)
        client.use(idempotencyKeys());
    return client;
}
/** A client of the platform's API token: `createPaymentsClient({ baseUrl, clientId, clientSecret })`. */
export function createPaymentsClient(options) {
    const { clientId, clientSecret, accessToken, ...rest } = options;
    const auth = accessToken !== undefined ? bearerAuth(accessToken) : clientId !== undefined && clientSecret !== undefined ? basicAuth(clientId, clientSecret) : undefined;
    return buildClient(rest, auth);
}
/** A client of an agent, for `/agents/me/...`: `createAgentClient({ baseUrl, accessToken })`. */
export function createAgentClient(options) {
    const { accessToken, ...rest } = options;
    return buildClient(rest, bearerAuth(accessToken));
}
