/** The response header with the id the service gave the request (quote it to support). */
export const REQUEST_ID_HEADER = 'X-Request-Id';
export class PaymentsApiError extends Error {
    name = 'PaymentsApiError';
    /** The HTTP status. */
    status;
    /** The spec's error code; undefined when the body was not an API error (a proxy's HTML page). */
    code;
    /** The whole error body as the API sent it; `details` and `reason` live here when present. */
    body;
    details;
    requestId;
    response;
    constructor(response, body) {
        const apiBody = isErrorBody(body) ? body : undefined;
        super(apiBody === undefined ? `HTTP ${response.status}` : `${response.status} ${apiBody.code}: ${apiBody.message ?? ''}`);
        this.status = response.status;
        this.code = apiBody?.code;
        this.body = apiBody;
        this.details = apiBody?.details;
        this.requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
        this.response = response;
    }
}
const isErrorBody = (body) => typeof body === 'object' && body !== null && typeof body.code === 'string' && typeof body.message === 'string';
export const isPaymentsApiError = (error) => error instanceof PaymentsApiError;
/**
 * The data of an openapi-fetch call, or a thrown PaymentsApiError typed by the operation:
 * `const customer = await unwrap(api.GET('/customers/{customerId}', …))`.
 */
export async function unwrap(call) {
    const result = await call;
    if (result.response.ok)
        return result.data;
    throw new PaymentsApiError(result.response, result.error);
}
