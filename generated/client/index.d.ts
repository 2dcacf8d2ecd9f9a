import { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../openapi.js';
export type { components, operations, paths };
export type PaymentsClient = Client<paths>;
/** The API version this package describes; base URLs end with it. */
export declare const API_VERSION = "2025-10-13";
export interface PaymentsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
    /** Base URL including the version segment, e.g. `http://127.0.0.1:3000/2025-10-13`. */
    baseUrl: string;
    /** API token credentials (HTTP Basic) for platform operations. */
    clientId?: string;
    clientSecret?: string;
    /** Agent access token (HTTP Bearer) for `/agents/me/...` operations. */
    accessToken?: string;
}
export declare function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient;
