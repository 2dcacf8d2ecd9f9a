// What the mock's front answers instead of Prism's own rejections: the server's error body
// (`{status, code, message, reason?, details?}`) with the status and code the sandbox server gives
// for the same kind of rejection (server/http/error-handler.ts, server/shared/errors.ts). Answers
// Prism takes from the spec's examples are not touched here.

import { matchPathTemplate } from '../../contract-tests/support/path-template.ts';
import type { components } from '../../generated/openapi.js';

type Json = Record<string, unknown>;

export interface Bundle {
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Json>;
}

export interface MockError {
  status: number;
  /** The spec's error body; 401s add their `reason` (Error401). */
  body: components['schemas']['Error'] & { reason?: string };
  headers: Record<string, string>;
}

/** One entry of `details.errors`, as the spec defines it. */
export type FieldError = components['schemas']['FieldError'];

/** One entry of Prism's `sl-violations` header. */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** A body Prism writes itself (`application/problem+json`). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/**
 * The API's base path, as the server serves it: the path of the bundle's server URL that ends with
 * the version (`http://127.0.0.1:3000/2025-10-13` → `/2025-10-13`), else `/<info.version>`.
 */
export function basePathOf(bundle: Bundle): string {
  const version = bundle.info.version;
  for (const server of bundle.servers ?? []) {
    const path = new URL(server.url, 'http://localhost').pathname.replace(/\/+$/, '');
    if (path.endsWith(`/${version}`)) return path;
  }
  return `/${version}`;
}

/** The path template of a request path (relative to the base path). */
const findPath = (bundle: Bundle, path: string): string | undefined => matchPathTemplate(Object.keys(bundle.paths), path);

function operationOf(bundle: Bundle, method: string, path: string): { pathItem: Json; operation: Json | undefined } | undefined {
  const template = findPath(bundle, path);
  if (template === undefined) return undefined;
  const pathItem = bundle.paths[template] ?? {};
  return { pathItem, operation: pathItem[method.toLowerCase()] as Json | undefined };
}

/** Names of the parameters an operation documents in one location (`query`, `path`, `header`). */
function parameterNames(bundle: Bundle, method: string, path: string, location: string): string[] {
  const op = operationOf(bundle, method, path);
  if (op === undefined) return [];
  const params = [...((op.pathItem.parameters as Json[] | undefined) ?? []), ...((op.operation?.parameters as Json[] | undefined) ?? [])];
  return params.map((p) => deref(bundle, p)).filter((p) => p.in === location).map((p) => String(p.name));
}

function deref(bundle: Bundle, node: Json): Json {
  let current = node;
  while (typeof current.$ref === 'string') {
    const keys = current.$ref.replace(/^#\//, '').split('/').map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    current = keys.reduce<Json>((acc, key) => (acc[key] ?? {}) as Json, bundle as unknown as Json);
  }
  return current;
}

/** Query parameters the operation does not document: the server refuses them (400), Prism ignores them. */
export function unknownQueryParameters(bundle: Bundle, method: string, path: string, query: URLSearchParams): FieldError[] {
  const op = operationOf(bundle, method, path);
  if (op?.operation === undefined) return [];
  const known = new Set(parameterNames(bundle, method, path, 'query'));
  return [...new Set(query.keys())]
    .filter((name) => !known.has(name))
    .map((name) => ({ field: `query.${name}`, message: `Unknown query parameter '${name}'` }));
}

/** The `WWW-Authenticate` challenge the server sends with a 401: Bearer for agent operations. */
function challenge(bundle: Bundle, method: string, path: string): string {
  const security = (operationOf(bundle, method, path)?.operation?.security as Record<string, unknown>[] | undefined) ?? [];
  return security.some((s) => 'bearerAuth' in s) ? 'Bearer realm="payments"' : 'Basic realm="payments"';
}

const error = (status: number, code: string, message: string, extra: { reason?: string; details?: Json; headers?: Record<string, string> } = {}): MockError => ({
  status,
  body: { status, code, message, ...(extra.reason === undefined ? {} : { reason: extra.reason }), ...(extra.details === undefined ? {} : { details: extra.details }) },
  headers: { 'content-type': 'application/json', ...extra.headers },
});

export const routeNotFound = (): MockError => error(404, 'ROUTE_NOT_FOUND', 'No such route.');

/** The server's answer to a body that is not JSON (`entity.parse.failed`). */
export const invalidJson = (): MockError => invalidInput([{ field: '/', message: 'The request body is not valid JSON.' }], 'The request body is not valid JSON.');

export const invalidInput = (errors: FieldError[], message = 'The request is invalid.'): MockError => error(400, 'INVALID_INPUT', message, { details: { errors } });

function unauthorized(bundle: Bundle, method: string, path: string): MockError {
  const scheme = challenge(bundle, method, path);
  const reason = scheme.startsWith('Bearer') ? 'Missing Bearer access token' : 'Missing Basic credentials';
  return error(401, 'UNAUTHORIZED', 'Authentication failed.', { reason, headers: { 'www-authenticate': scheme } });
}

function methodNotAllowed(bundle: Bundle, path: string): MockError {
  const template = findPath(bundle, path);
  const pathItem = template === undefined ? {} : (bundle.paths[template] ?? {});
  const allow = METHODS.filter((m) => pathItem[m] !== undefined).map((m) => m.toUpperCase()).join(', ');
  return error(405, 'METHOD_NOT_ALLOWED', 'This method is not allowed on this path.', { headers: allow === '' ? {} : { allow } });
}

/** Violations whose field Prism names in the message, not the location: missing and undefined properties. */
const NAMED_IN_MESSAGE: Record<string, RegExp> = {
  required: /required property '([^']+)'/,
  additionalProperties: /found '([^']+)'/,
  unevaluatedProperties: /unevaluated properties: '([^']+)'/,
};

/**
 * One of Prism's request violations as the server names the field: body fields as JSON pointers
 * (`/accountInfo/routingNumber`, a missing or undefined property included), others as `query.limit`,
 * `path.customerId` (Prism lowercases path parameter names; the spec's spelling is restored),
 * `header.idempotency-key`.
 */
function fieldError(bundle: Bundle, method: string, path: string, v: Violation): FieldError {
  const [, where = '', ...rest] = v.location;
  const constraint = typeof v.code === 'string' ? v.code : undefined;
  const withConstraint = (field: string, message: string): FieldError => ({ field, message, ...(constraint === undefined ? {} : { constraint }) });
  if (where === 'body') {
    // A missing property, or one the schema does not define, is named as the field itself (as the
    // server names it); Prism points at the object holding it and names it in the message.
    const named = NAMED_IN_MESSAGE[String(v.code)]?.exec(v.message)?.[1];
    const pointer = [...rest, ...(named === undefined ? [] : [named])].map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1'));
    return withConstraint(`/${pointer.join('/')}`, v.message);
  }
  if (where === 'query' || where === 'path' || where === 'header') {
    const raw = rest.join('.');
    const name = where === 'header' ? raw.toLowerCase() : (parameterNames(bundle, method, path, where).find((n) => n.toLowerCase() === raw.toLowerCase()) ?? raw);
    return withConstraint(`${where}.${name}`, v.message);
  }
  // A violation of the request as a whole: today only a missing body.
  if (/body parameter is required/i.test(v.message)) return { field: '/', message: 'This operation needs a request body.', constraint: 'required' };
  return withConstraint('/', v.message);
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The server's answer to a request Prism flagged (its `sl-violations`, severity Error), in the
 * order the server checks: credentials (401), then the content type (415), then the input (400,
 * every field listed). `extra` adds the front's own findings (unknown query parameters).
 */
export function fromViolations(bundle: Bundle, method: string, path: string, violations: Violation[], extra: FieldError[] = []): MockError {
  if (violations.some((v) => v.code === 401)) return unauthorized(bundle, method, path);
  const mediaType = violations.find((v) => v.code === 415);
  // A body the operation does not take at all is input the server refuses, not a wrong type.
  if (mediaType !== undefined && !/no supported content types/i.test(mediaType.message)) {
    return error(415, 'UNSUPPORTED_MEDIA_TYPE', mediaType.message);
  }
  const errors = violations.filter((v) => v.code !== 415 || /no supported content types/i.test(v.message)).map((v) => fieldError(bundle, method, path, v));
  return invalidInput(dedupe([...errors, ...extra]));
}

/** The server's answer instead of a body Prism wrote itself (`application/problem+json`). */
export function fromProblem(bundle: Bundle, method: string, path: string, problem: Problem, violations: Violation[]): MockError {
  const kind = (problem.type ?? '').split('#')[1] ?? '';
  switch (kind) {
    case 'NO_PATH_MATCHED_ERROR':
      return routeNotFound();
    case 'NO_METHOD_MATCHED_ERROR':
      return methodNotAllowed(bundle, path);
    case 'UNAUTHORIZED':
      return unauthorized(bundle, method, path);
    case 'UNPROCESSABLE_ENTITY':
      // Request validation of an operation that documents no 400 or 422.
      return violations.length > 0 ? fromViolations(bundle, method, path, violations) : invalidInput([{ field: '/', message: problem.detail ?? 'is invalid' }]);
    case 'INVALID_CONTENT_TYPE':
      return error(415, 'UNSUPPORTED_MEDIA_TYPE', problem.detail ?? 'Unsupported content type.');
    case 'NOT_FOUND':
      // `Prefer: code=499` or `example=nope`: the mock has no such answer. The server ignores
      // `Prefer`; the mock refuses it as input, saying why.
      return invalidInput([{ field: 'header.prefer', message: problem.detail ?? 'No such response in the contract.' }]);
  }
  if (problem.status === 401) return unauthorized(bundle, method, path);
  if (problem.status === 404) return routeNotFound();
  if (problem.status === 405) return methodNotAllowed(bundle, path);
  return error(500, 'INTERNAL_ERROR', `The mock could not answer: ${[problem.title, problem.detail].filter(Boolean).join(': ')}`);
}

/** Prism's `sl-violations` header, errors only (warnings do not change the answer). */
export function parseViolations(header: string | null): Violation[] {
  if (header === null || header === '') return [];
  try {
    const list = JSON.parse(header) as Violation[];
    return Array.isArray(list) ? list.filter((v) => v.severity === 'Error') : [];
  } catch {
    return [];
  }
}
