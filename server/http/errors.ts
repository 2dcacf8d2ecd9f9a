// The one error type handlers throw, and the middleware that turns every failure (ours, the
// validator's, Express's, a bug) into the documented error body. Stack traces never leave the server.
import type { ErrorRequestHandler } from 'express';
import type { components } from '../../generated/openapi.js';
import type { Logger } from 'pino';

type Schemas = components['schemas'];
/** Every error code the contract documents, per status. */
export type ErrorCode =
  | Schemas['Error400']['code'] | Schemas['Error401']['code'] | Schemas['Error403']['code'] | Schemas['Error404']['code']
  | Schemas['Error409']['code'] | Schemas['Error410']['code'] | Schemas['Error422']['code'] | Schemas['Error429']['code']
  | Schemas['Error500']['code']
  // Not documented per operation: stubs answer 501 and unknown methods 405, in the same body shape.
  | 'NOT_IMPLEMENTED' | 'METHOD_NOT_ALLOWED';

export interface FieldError {
  field: string;
  message: string;
  constraint?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly extra?: { reason?: string; headers?: Record<string, string> },
  ) {
    super(message);
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
export const invalidField = (field: string, message: string, constraint?: string) =>
  badRequest('INVALID_INPUT', message, { errors: [{ field, message, ...(constraint === undefined ? {} : { constraint }) }] });
export const unauthorized = (reason: string, code: Schemas['Error401']['code'] = 'UNAUTHORIZED', scheme = 'Basic') =>
  new ApiError(401, code, 'Authentication failed.', undefined, { reason, headers: { 'WWW-Authenticate': `${scheme} realm="payments"` } });
export const forbidden = (code: Schemas['Error403']['code'], message: string) => new ApiError(403, code, message);
export const notFound = (code: Schemas['Error404']['code'], message: string) => new ApiError(404, code, message);
export const conflict = (code: Schemas['Error409']['code'], message: string, details?: Record<string, unknown>) => new ApiError(409, code, message, details);
export const gone = (message: string) => new ApiError(410, 'CUSTOMER_DELETED', message);

interface ValidatorError {
  status?: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  headers?: Record<string, string>;
  type?: string;
}

const LOCATIONS: Record<string, string> = { query: 'query', params: 'path', path: 'path', headers: 'header' };

/**
 * Field-level errors of express-openapi-validator: body fields as JSON pointers (`/name`), other
 * fields as `query.limit`, `path.customerId`, `header.idempotency-key`. A failed discriminator is
 * reported against the request URL; its field is the property the message names.
 */
function fieldErrors(err: ValidatorError): FieldError[] {
  return (err.errors ?? []).map((e) => {
    const [where = '', ...rest] = (e.path ?? '').replace(/^[./]/, '').split(/[./]/);
    const location = LOCATIONS[where];
    const field =
      where === 'body' ? `/${rest.join('/')}` : location !== undefined ? `${location}.${rest.join('.')}` : `/${/^'([^']+)'/.exec(e.message ?? '')?.[1] ?? ''}`;
    const constraint = e.errorCode?.split('.')[0];
    return { field, message: e.message ?? 'is invalid', ...(constraint === undefined || constraint === '' ? {} : { constraint }) };
  });
}

/** Maps anything thrown to an ApiError. */
export function toApiError(err: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  const e = (err ?? {}) as ValidatorError & { type?: string; status?: number; expose?: boolean };
  switch (e.type) {
    case 'entity.too.large':
      return { error: badRequest('PAYLOAD_TOO_LARGE', 'The request body is too large.'), unexpected: false };
    case 'entity.parse.failed':
      return { error: invalidField('/', 'The request body is not valid JSON.'), unexpected: false };
  }
  switch (e.status) {
    case 400:
      return { error: badRequest('INVALID_INPUT', 'The request is invalid.', { errors: fieldErrors(e) }), unexpected: false };
    case 401:
      return { error: unauthorized(e.message ?? 'Missing or invalid credentials'), unexpected: false };
    case 404:
      return { error: notFound('ROUTE_NOT_FOUND', 'No such route.'), unexpected: false };
    case 405:
      return { error: new ApiError(405, 'METHOD_NOT_ALLOWED', 'This method is not allowed on this path.', undefined, { headers: e.headers ?? {} }), unexpected: false };
    case 413:
      // The multipart parser's file-size limit (10 MiB per document) arrives here too.
      return e.message?.includes('File too large')
        ? { error: badRequest('FILE_TOO_LARGE', 'The file is larger than 10 MiB.'), unexpected: false }
        : { error: badRequest('PAYLOAD_TOO_LARGE', 'The request body is too large.'), unexpected: false };
    case 415:
      return { error: badRequest('UNSUPPORTED_MEDIA_TYPE', e.message ?? 'Unsupported content type.'), unexpected: false };
  }
  return { error: new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong on our side.'), unexpected: true };
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { error, unexpected } = toApiError(err);
    if (unexpected) log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(error.extra?.headers ?? {})) res.setHeader(name, value);
    // Agent operations authenticate with a bearer token: say so in the challenge.
    const security = (req as { openapi?: { schema?: { security?: Record<string, unknown>[] } } }).openapi?.schema?.security;
    if (error.status === 401 && security?.some((s) => 'bearerAuth' in s) === true) res.setHeader('WWW-Authenticate', 'Bearer realm="payments"');
    // Sent raw: an error body must not itself be rejected by response validation.
    res.status(error.status).type('application/json').send(JSON.stringify(error.body()));
  };
}
