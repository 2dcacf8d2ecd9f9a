// The typed client of the Payments Service API: openapi-fetch bound to the generated `paths`, so a
// wrong path, method, parameter or body is a compile error. Every type comes from the spec.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../generated/openapi.js';

export type { components, operations, paths };
export type PaymentsClient = Client<paths>;

/** The API version this package describes; base URLs end with it. */
export const API_VERSION = '2025-10-13';

export interface PaymentsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Base URL including the version segment, e.g. `http://127.0.0.1:3000/2025-10-13`. */
  baseUrl: string;
  /** API token credentials (HTTP Basic) for platform operations. */
  clientId?: string;
  clientSecret?: string;
  /** Agent access token (HTTP Bearer) for `/agents/me/...` operations. */
  accessToken?: string;
}

export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const { clientId, clientSecret, accessToken, headers, ...rest } = options;
  const auth: Record<string, string> = {};
  if (accessToken !== undefined) auth.Authorization = `Bearer ${accessToken}`;
  else if (clientId !== undefined && clientSecret !== undefined) {
    auth.Authorization = `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
  }
  return createClient<paths>({ ...rest, headers: { ...auth, ...(headers as Record<string, string> | undefined) } });
}
