// The clients: openapi-fetch bound to the generated `paths` (a wrong path, method, parameter or
// body is a compile error), with credentials, automatic Idempotency-Keys, retries and a timeout.
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { basicAuth, bearerAuth } from './auth.js';
import { idempotencyKeys } from './idempotency.js';
import { resilientFetch, type RetryOptions } from './retry.js';

export type PaymentsClient = Client<paths>;

/** The API version this package describes; base URLs end with it. */
export const API_VERSION = '2025-10-13';

export interface CommonClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Base URL including the version segment, e.g. `http://127.0.0.1:3000/2025-10-13`. */
  baseUrl: string;
  /** Retries of 429, 503 and network errors for requests safe to repeat; `false` sends every request once. */
  retry?: RetryOptions | false;
  /** Milliseconds a call may take, retries included (default 30 s); `false` for none. */
  timeoutMs?: number | false;
  /** Automatic Idempotency-Key on operations that document it (default true). */
  idempotencyKeys?: boolean;
}

export interface PaymentsClientOptions extends CommonClientOptions {
  /** API token credentials (HTTP Basic) for platform operations. */
  clientId?: string;
  clientSecret?: string;
  /** Agent access token (HTTP Bearer); prefer createAgentClient. */
  accessToken?: string;
}

export interface AgentClientOptions extends CommonClientOptions {
  /** The `accessToken` of `POST /agents/device-codes/{code}/redeem`. */
  accessToken: string;
}

function buildClient(options: CommonClientOptions, auth: Middleware | undefined): PaymentsClient {
  const { retry, timeoutMs = 30_000, idempotencyKeys: autoKeys = true, fetch: send = (request: Request) => globalThis.fetch(request), ...rest } = options;
  const client = createClient<paths>({
    ...rest,
    fetch: resilientFetch(send, { ...(retry === false ? { maxRetries: 0 } : retry), timeoutMs: timeoutMs === false ? undefined : timeoutMs }),
  });
  if (auth !== undefined) client.use(auth);
  if (autoKeys) client.use(idempotencyKeys());
  return client;
}

/** A client of the platform's API token: `createPaymentsClient({ baseUrl, clientId, clientSecret })`. */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const { clientId, clientSecret, accessToken, ...rest } = options;
  const auth =
    accessToken !== undefined ? bearerAuth(accessToken) : clientId !== undefined && clientSecret !== undefined ? basicAuth(clientId, clientSecret) : undefined;
  return buildClient(rest, auth);
}

/** A client of an agent, for `/agents/me/...`: `createAgentClient({ baseUrl, accessToken })`. */
export function createAgentClient(options: AgentClientOptions): PaymentsClient {
  const { accessToken, ...rest } = options;
  return buildClient(rest, bearerAuth(accessToken));
}
