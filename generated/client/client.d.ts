import { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../openapi.js';
import { type RetryOptions } from './retry.js';
export type PaymentsClient = Client<paths>;
/** The API version this package describes; base URLs end with it. */
export declare const API_VERSION = "2025-10-13";
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
/** A client of the platform's API token: `createPaymentsClient({ baseUrl, clientId, clientSecret })`. */
export declare function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient;
/** A client of an agent, for `/agents/me/...`: `createAgentClient({ baseUrl, accessToken })`. */
export declare function createAgentClient(options: AgentClientOptions): PaymentsClient;
