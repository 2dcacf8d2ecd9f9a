// What every contract test uses: the typed client pointed at the target, with one middleware that
// checks every response against the contract (documented status, JSON content type, body valid
// under the independent validator). A test never checks the schema itself.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { Middleware } from 'openapi-fetch';
import { describe, expect, inject, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from '../../client/index.ts';
import { contractProblem, findOperation } from './contract-check.ts';
import { observedStatusesFile } from './observed-statuses.ts';
import { basicAuth } from './raw-requests.ts';

export const target = inject('target');
export const baseUrl = inject('baseUrl');
export const credentials = { clientId: inject('clientId'), clientSecret: inject('clientSecret') };
/** The Prism mock keeps no state: tests that need it run only against the real server. */
export const isMock = target === 'prism';

/**
 * Marks tests that need state the mock cannot keep (create then read, permissions of a second
 * token, 404 of a deleted object). They are reported as skipped against Prism, and counted.
 */
export const itServer = it.skipIf(isMock);
export const describeServer = describe.skipIf(isMock);
/** Tests that need real concurrency, which only PostgreSQL has (PGlite serialises every query). */
export const itPostgres = it.skipIf(target !== 'postgres');

/** Throws when a response does not match the contract. */
export async function checkResponse(method: string, url: string, response: Response): Promise<void> {
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  const path = new URL(url).pathname.slice(basePath.length);
  const op = findOperation(method, path);
  if (op === undefined) throw new Error(`${method} ${path} is not an operation of the contract`);
  appendFileSync(observedStatusesFile(target), `${op.operation.operationId} ${response.status}\n`);
  const problem = await contractProblem(op, response);
  if (problem !== undefined) throw new Error(`${method} ${path} → ${response.status}: ${problem}`);
}

const contractCheck: Middleware = {
  async onResponse({ request, response }) {
    await checkResponse(request.method, request.url, response);
    return undefined;
  },
};

/** A client whose every response is checked against the contract; `serverBaseUrl` for a test's own server. */
export function client(options: { clientId?: string; clientSecret?: string; accessToken?: string } = credentials, serverBaseUrl = baseUrl): PaymentsClient {
  const c = createPaymentsClient({ baseUrl: serverBaseUrl, ...options });
  c.use(contractCheck);
  return c;
}

/** The suite's own client: the bootstrap token with every permission. */
export const api = client();

/** A request outside the typed client (malformed bodies, missing auth), still checked against the contract. */
export async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string | FormData; auth?: boolean } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== false) headers.Authorization = basicAuth(credentials);
  const url = `${baseUrl}${path}`;
  const response = await fetch(url, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
  await checkResponse(method, url, response);
  return response;
}

/**
 * Plain JSON requests to a server (the shared target by default, or a test's own) as a token,
 * answered as the server answered and checked against the contract: for request shapes the typed
 * client cannot send (unions, signature headers) or tests of refusals.
 */
export function checkedCalls(serverBaseUrl = baseUrl, token: { clientId: string; clientSecret: string } = credentials) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = `${serverBaseUrl}${path}`;
    const init: RequestInit = { method, headers: { Authorization: basicAuth(token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(url, init);
    await checkResponse(method, url, res);
    return res;
  };
}

export const idempotencyKey = (): string => randomUUID();
/** A unique suffix so tests that run in parallel never collide. */
export const unique = (): string => randomUUID().slice(0, 8);

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  reason?: string;
  details?: { errors?: { field: string; message: string; constraint?: string }[] } & Record<string, unknown>;
}

/** The error body of a raw response (already checked against the contract by raw()). */
export const errorOf = async (res: Response): Promise<ErrorBody> => (await res.json()) as ErrorBody;

/**
 * Asserts a request the contract rejects as invalid: 400 INVALID_INPUT from the server. The Prism
 * mock answers a validation failure with the first validation status the operation documents,
 * which is 422 on operations that take an Idempotency-Key, with its example body.
 */
export async function expectInvalidRequest(res: Response): Promise<void> {
  if (isMock) {
    expect([400, 422]).toContain(res.status);
    return;
  }
  expect(res.status).toBe(400);
  expect((await errorOf(res)).code).toBe('INVALID_INPUT');
}
