import type { Middleware } from 'openapi-fetch';
/** HTTP Basic with an API token (platform operations). */
export declare const basicAuth: (clientId: string, clientSecret: string) => Middleware;
/** HTTP Bearer with an agent's access token (`/agents/me/...`). */
export declare const bearerAuth: (accessToken: string) => Middleware;
