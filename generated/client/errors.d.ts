import type { components } from '../openapi.js';
type Schemas = components['schemas'];
/** Every error body the spec defines (Error400, Error401, …, and the sandbox simulations' SandboxError409). */
export type ApiErrorBody = Schemas[Extract<keyof Schemas, `Error${number}` | 'SandboxError409'>];
/** Every error code the spec defines. */
export type ApiErrorCode = ApiErrorBody['code'];
/** The response header with the id the service gave the request (quote it to support). */
export declare const REQUEST_ID_HEADER = "X-Request-Id";
export declare class PaymentsApiError<E extends {
    code: string;
} = ApiErrorBody> extends Error {
    readonly name = "PaymentsApiError";
    /** The HTTP status. */
    readonly status: number;
    /** The spec's error code; undefined when the body was not an API error (a proxy's HTML page). */
    readonly code: E['code'] | undefined;
    /** The whole error body as the API sent it; `details` and `reason` live here when present. */
    readonly body: E | undefined;
    readonly details: Record<string, unknown> | undefined;
    readonly requestId: string | undefined;
    readonly response: Response;
    constructor(response: Response, body: unknown);
}
export declare const isPaymentsApiError: (error: unknown) => error is PaymentsApiError;
type DataOf<R> = R extends {
    data: infer D;
} ? D : never;
/**
 * The data of an openapi-fetch call, or a thrown PaymentsApiError typed by the operation:
 * `const customer = await unwrap(api.GET('/customers/{customerId}', …))`.
 */
export declare function unwrap<R extends {
    data?: unknown;
    error?: unknown;
    response: Response;
}>(call: Promise<R>): Promise<DataOf<R>>;
export {};
