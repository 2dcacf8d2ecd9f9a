// Turns every failure (ours, the validator's, the body parsers', the multipart parser's, a bug)
// into the documented error body. Stack traces and internal messages never leave the server.
import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from 'pino';
import { ApiError, badRequest, internalError, invalidField, invalidFields, notFound, unauthorized, type FieldError } from '../shared/errors.ts';
import { recordedAuthError } from './auth.ts';
import { notJson } from './json-body.ts';
import { hasBody } from './request-input.ts';

/** An error of express-openapi-validator (HttpError) or of a body parser (http-errors). */
interface FrameworkError {
  status?: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  headers?: Record<string, string>;
  type?: string;
  path?: string;
}

const LOCATIONS: Record<string, string> = { query: 'query', params: 'path', path: 'path', headers: 'header' };

/**
 * Field-level errors: body fields as JSON pointers (`/accountInfo/routingNumber`), others as
 * `query.limit`, `path.customerId`, `header.idempotency-key`. The `if` errors of a discriminated
 * union only say "the branch failed"; the branch's own errors say why, so they alone are kept.
 */
function fieldErrors(err: FrameworkError): FieldError[] {
  return (err.errors ?? [])
    .filter((e) => !e.errorCode?.startsWith('if.'))
    .map((e) => {
      const raw = e.path ?? '';
      const [where = '', ...rest] = raw.slice(1).split(raw.startsWith('.') ? '.' : '/');
      const location = LOCATIONS[where];
      const field = where === 'body' ? `/${rest.join('/')}` : location !== undefined ? `${location}.${rest.join('.')}` : `/${[where, ...rest].filter(Boolean).join('/')}`;
      const constraint = e.errorCode?.split('.')[0];
      return { field, message: e.message ?? 'is invalid', ...(constraint === undefined || constraint === '' ? {} : { constraint }) };
    });
}

/** multer's messages for its limits on fields (multer-error.js), which the validator reports as 400. */
const MULTIPART_SIZE_LIMITS = /^(Field value too long|Too many fields|Field name too long)$/;

/** Whether the request's operation takes an agent's bearer token (the validator matched it first). */
const bearerOperation = (req: Request): boolean =>
  (req as { openapi?: { schema?: { security?: Record<string, unknown>[] } } }).openapi?.schema?.security?.some((s) => 'bearerAuth' in s) === true;

const isMultipart = (req: Request) => (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');

/** Maps anything thrown to an ApiError; `unexpected` marks what deserves a log line with the stack. */
export function toApiError(err: unknown, req: Request): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  // Authentication failed in the validator's security stage: the cause (401 or 429) was recorded.
  const auth = recordedAuthError(req);
  if (auth !== undefined) return { error: auth, unexpected: false };
  const e = (err ?? {}) as FrameworkError;
  switch (e.type) {
    case 'entity.too.large':
      return { error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MB.'), unexpected: false };
    case 'entity.parse.failed':
      return { error: notJson(), unexpected: false };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { error: new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8 JSON.'), unexpected: false };
  }
  // The multipart parser's limits on text parts (app.ts) arrive as a 400 of the validator; they
  // are about the body's size, like its limit on files.
  if (e.status === 400 && isMultipart(req) && MULTIPART_SIZE_LIMITS.test(e.message ?? '')) {
    return { error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The multipart body has too many or too large text parts.'), unexpected: false };
  }
  switch (e.status) {
    case 400:
      return { error: invalidFields(fieldErrors(e)), unexpected: false };
    case 401:
      // The validator refuses a missing Authorization header, or one of another scheme, itself,
      // before the security handlers run: the reason is the one the authentication guide gives.
      return { error: bearerOperation(req) ? unauthorized('Missing Bearer access token', 'UNAUTHORIZED', 'Bearer') : unauthorized('Missing Basic credentials'), unexpected: false };
    case 404:
      return { error: notFound('ROUTE_NOT_FOUND', 'No such route.'), unexpected: false };
    case 405:
      return { error: new ApiError(405, 'METHOD_NOT_ALLOWED', 'This method is not allowed on this path.', undefined, { headers: e.headers ?? {} }), unexpected: false };
    case 413:
      // The multipart parser's file-size limit (10 MiB per document) arrives here too.
      return e.message?.includes('File too large')
        ? { error: new ApiError(413, 'FILE_TOO_LARGE', 'The file is larger than 10 MiB.'), unexpected: false }
        : { error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.'), unexpected: false };
    case 415:
      // No body at all is a missing body, not one of the wrong type.
      if (!hasBody(req)) return { error: invalidField('/', 'This operation needs a request body.', 'required'), unexpected: false };
      return { error: new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', e.message ?? 'Unsupported content type.'), unexpected: false };
  }
  // The multipart parser reports a broken body (no such boundary, cut short, bad part headers)
  // as a 500 of the validator; it is the request's fault.
  if (e.status === 500 && typeof e.path === 'string' && isMultipart(req)) {
    return { error: badRequest('INVALID_INPUT', 'The multipart body is malformed.', { errors: [{ field: '/', message: e.message ?? 'malformed multipart body' }] }), unexpected: false };
  }
  return { error: internalError(), unexpected: true };
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { error, unexpected } = toApiError(err, req);
    if (unexpected) log.error({ err, requestId: res.getHeader('X-Request-Id'), method: req.method, url: req.originalUrl }, 'unhandled error');
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(error.extra?.headers ?? {})) res.setHeader(name, value);
    // Agent operations authenticate with a bearer token: say so in the challenge.
    if (error.status === 401 && bearerOperation(req)) res.setHeader('WWW-Authenticate', 'Bearer realm="payments"');
    // Sent raw: an error body must not itself be rejected by response validation.
    res.status(error.status).type('application/json').send(JSON.stringify(error.body()));
  };
}
