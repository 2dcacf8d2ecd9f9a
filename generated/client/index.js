// The typed client of the Payments Service API: openapi-fetch bound to the generated `paths`, so a
// wrong path, method, parameter or body is a compile error. Every type comes from the spec.
import createClient, {} from 'openapi-fetch';
/** The API version this package describes; base URLs end with it. */
export const API_VERSION = '2025-10-13';
export function createPaymentsClient(options) {
    const { clientId, clientSecret, accessToken, headers, ...rest } = options;
    const auth = {};
    if (accessToken !== undefined)
        auth.Authorization = `Bearer ${accessToken}`;
    else if (clientId !== undefined && clientSecret !== undefined) {
        auth.Authorization = `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
    }
    return createClient({ ...rest, headers: { ...auth, ...headers } });
}
