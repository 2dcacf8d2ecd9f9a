// API errors as typed values. Calls keep openapi-fetch's `{ data, error, response }`; `unwrap`
// turns an error answer into a thrown PaymentsApiError whose `code` is the union the operation's
// documented error bodies allow (the spec's Error<status> enums).
import type { components } from '../generated/openapi.js';

type Schemas = components['schemas'];

/** Every error body the spec defines (Error400, Error401, …, and the sandbox simulations' SandboxError409). */
export type ApiErrorBody = Schemas[Extract<keyof Schemas, `Error${number}` | 'SandboxError409'>];
/** Every error code the spec defines. */
export type ApiErrorCode = ApiErrorBody['code'];

/** The response header with the id the service gave the request (quote it to support). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The error bodies of an openapi-fetch `error`: those with a `code`. */
type BodyOf<E> = Extract<E, { code: string }>;

export class PaymentsApiError<E extends { code: string } = ApiErrorBody> extends Error {
  override readonly name = 'PaymentsApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The spec's error code; undefined when the body was not an API error (a proxy's HTML page). */
  readonly code: E['code'] | undefined;
  /** The whole error body as the API sent it; `details` and `reason` live here when present. */
  readonly body: E | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const apiBody = isErrorBody(body) ? (body as unknown as E) : undefined;
    super(apiBody === undefined ? `HTTP ${response.status}` : `${response.status} ${apiBody.code}: ${(apiBody as { message?: string }).message ?? ''}`);
    this.status = response.status;
    this.code = apiBody?.code;
    this.body = apiBody;
    this.details = (apiBody as { details?: Record<string, unknown> } | undefined)?.details;
    this.requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
    this.response = response;
  }
}

const isErrorBody = (body: unknown): body is { code: string; message: string } =>
  typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';

export const isPaymentsApiError = (error: unknown): error is PaymentsApiError => error instanceof PaymentsApiError;

type DataOf<R> = R extends { data: infer D } ? D : never;
type ErrorOf<R> = R extends { error: infer E } ? E : never;

/**
 * The data of an openapi-fetch call, or a thrown PaymentsApiError typed by the operation:
 * `const customer = await unwrap(api.GET('/customers/{customerId}', …))`.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(call: Promise<R>): Promise<DataOf<R>> {
  const result = await call;
  if (result.response.ok) return result.data as DataOf<R>;
  throw new PaymentsApiError<[BodyOf<ErrorOf<R>>] extends [never] ? ApiErrorBody : BodyOf<ErrorOf<R>>>(result.response, result.error);
}
