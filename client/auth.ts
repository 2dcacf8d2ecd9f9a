// Credentials as openapi-fetch middleware, so every request (retries included) carries them and a
// caller's own Authorization header on one call still wins.
import type { Middleware } from 'openapi-fetch';

const authorization = (value: string): Middleware => ({
  onRequest({ request }) {
    if (!request.headers.has('Authorization')) request.headers.set('Authorization', value);
    return request;
  },
});

/** HTTP Basic with an API token (platform operations). */
export const basicAuth = (clientId: string, clientSecret: string): Middleware =>
  authorization(`Basic ${btoa(`${clientId}:${clientSecret}`)}`);

/** HTTP Bearer with an agent's access token (`/agents/me/...`). */
export const bearerAuth = (accessToken: string): Middleware => authorization(`Bearer ${accessToken}`);
