const authorization = (value) => ({
    onRequest({ request }) {
        if (!request.headers.has('Authorization'))
            request.headers.set('Authorization', value);
        return request;
    },
});
/** HTTP Basic with an API token (platform operations). */
export const basicAuth = (clientId, clientSecret) => authorization(`Basic ${btoa(`${clientId}:${clientSecret}`)}`);
/** HTTP Bearer with an agent's access token (`/agents/me/...`). */
export const bearerAuth = (accessToken) => authorization(`Bearer ${accessToken}`);
