// The one error type services and handlers throw, with a constructor per documented status. The
// HTTP layer turns it (and every other failure) into the documented error body.
import type { components } from '../../generated/openapi.js';

type Schemas = components['schemas'];
/** Every error code the contract documents, per status. */
export type ErrorCode =
  | Schemas['Error400']['code'] | Schemas['Error401']['code'] | Schemas['Error403']['code'] | Schemas['Error404']['code']
  | Schemas['Error409']['code'] | Schemas['Error410']['code'] | Schemas['Error413']['code'] | Schemas['Error415']['code']
  | Schemas['Error422']['code'] | Schemas['Error429']['code'] | Schemas['Error500']['code']
  // The sandbox simulations' 409 is a schema of its own, so the other operations' 409 gains no code.
  | Schemas['SandboxError409']['code']
  // Not documented per operation: stubs answer 501, unknown methods 405, and the HTTP layer 431 and
  // 408 (http/client-errors.ts, before any operation is matched), in the same body shape.
  | 'NOT_IMPLEMENTED' | 'METHOD_NOT_ALLOWED' | 'REQUEST_HEADERS_TOO_LARGE' | 'REQUEST_TIMEOUT';

export interface FieldError {
  field: string;
  message: string;
  constraint?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly extra: { reason?: string; headers?: Record<string, string> } | undefined;

  constructor(status: number, code: ErrorCode, message: string, details?: Record<string, unknown>, extra?: { reason?: string; headers?: Record<string, string> }) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.extra = extra;
  }

  body(): Record<string, unknown> {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.extra?.reason === undefined ? {} : { reason: this.extra.reason }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

export const badRequest = (code: Schemas['Error400']['code'], message: string, details?: Record<string, unknown>) => new ApiError(400, code, message, details);
export const invalidFields = (errors: FieldError[], message = 'The request is invalid.') => badRequest('INVALID_INPUT', message, { errors });
export const invalidField = (field: string, message: string, constraint?: string) =>
  invalidFields([{ field, message, ...(constraint === undefined ? {} : { constraint }) }], message);
export const unauthorized = (reason: string, code: Schemas['Error401']['code'] = 'UNAUTHORIZED', scheme = 'Basic') =>
  new ApiError(401, code, 'Authentication failed.', undefined, { reason, headers: { 'WWW-Authenticate': `${scheme} realm="payments"` } });
/** A wrong proof (OTP, OIDC token, passkey): `reason` is the fixed label, `message` says what was wrong. */
export const proofRejected = (reason: string, message: string) =>
  new ApiError(401, 'UNAUTHORIZED', message, undefined, { reason, headers: { 'WWW-Authenticate': 'Basic realm="payments"' } });
export const forbidden = (code: Schemas['Error403']['code'], message: string) => new ApiError(403, code, message);
export const notFound = (code: Schemas['Error404']['code'], message: string) => new ApiError(404, code, message);
export const conflict = (code: Schemas['Error409']['code'] | Schemas['SandboxError409']['code'], message: string, details?: Record<string, unknown>) => new ApiError(409, code, message, details);
export const gone = (message: string) => new ApiError(410, 'CUSTOMER_DELETED', message);
export const unprocessable = (code: Schemas['Error422']['code'], message: string) => new ApiError(422, code, message);
export const tooManyRequests = (code: Schemas['Error429']['code'], message: string, retryAfterSeconds: number) =>
  new ApiError(429, code, message, undefined, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
export const internalError = () => new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong on our side.');
