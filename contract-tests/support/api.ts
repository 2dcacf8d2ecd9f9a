// What every contract test uses: the typed client pointed at the target, with one middleware that
// checks every response against the contract (documented status, JSON content type, body valid
// under the independent validator). A test never checks the schema itself.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Middleware } from 'openapi-fetch';
import { describe, expect, inject, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from '../../client/index.ts';
import { contractPath, contractProblem, findOperation } from './contract-check.ts';
import { observedStatusesFile } from './observed-statuses.ts';
import { prismVerdict } from './prism-verdict.ts';
import { proxyFetch } from './proxy-fetch.ts';
import { recordProxyEvent } from './proxy-tally.ts';
import { basicAuth } from './raw-requests.ts';

export const target = inject('target');
// A project without the contract suite's global setup (the reliability tests) may run first on a
// fresh clone, where .tmp/ does not exist yet.
mkdirSync(dirname(observedStatusesFile(String(target))), { recursive: true });
export const baseUrl = inject('baseUrl');
/** The real server's API base URL: `baseUrl` except behind the proxy (and empty for the mock). */
export const serverBaseUrl = inject('serverBaseUrl');
export const credentials = { clientId: inject('clientId'), clientSecret: inject('clientSecret') };
/** The origin of a server's test controls (`/__test/...`, not part of the contract, so never through a proxy) for an API base URL. */
export const controlsOrigin = (base: string): string => (base === baseUrl ? inject('origin') : new URL(base).origin);
/** The Prism mock keeps no state: tests that need it run only against the real server. */
export const isMock = target === 'prism';
/**
 * On PGlite, the suite's server is behind `prism proxy --errors`: every request and answer of the
 * suite's client is checked by Prism too. Servers of a test's own have no proxy in front.
 */
export const isProxy = target === 'pglite';
/** fetch for the target: through the proxy (see proxy-fetch.ts), or plain. */
const send: typeof fetch = isProxy ? proxyFetch(baseUrl, serverBaseUrl) : fetch;

/**
 * Marks tests that need state the mock cannot keep (create then read, permissions of a second
 * token, 404 of a deleted object). They are reported as skipped against Prism, and counted.
 */
export const itServer = it.skipIf(isMock);
export const describeServer = describe.skipIf(isMock);
/** Tests that need real concurrency, which only PostgreSQL has (PGlite serialises every query). */
export const itPostgres = it.skipIf(target !== 'postgres');

/** Throws when a response does not match the contract (or, through the proxy, when Prism says it does not). */
export async function checkResponse(method: string, url: string, response: Response): Promise<void> {
  const path = contractPath(url);
  const where = `${method} ${path} → ${response.status}`;
  if (isProxy && response.url !== '' && new URL(response.url).origin === new URL(baseUrl).origin) {
    recordProxyEvent({ event: 'checked' });
    const verdict = await prismVerdict(response);
    if (verdict.kind === 'violation') {
      recordProxyEvent({ event: 'violation', where: `${method} ${path}`, details: verdict.details });
      throw new Error(`${where}: Prism finds the server's answer violates the contract:\n${verdict.details}`);
    }
    if (verdict.kind !== 'passed') throw new Error(`${where}: Prism answered instead of the server: ${JSON.stringify(verdict)}`);
  }
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

/** A client whose every response is checked against the contract; `base` for a test's own server. */
export function client(options: { clientId?: string; clientSecret?: string; accessToken?: string } = credentials, base = baseUrl): PaymentsClient {
  // The suite checks each answer as the server gave it: no retries, no client-side timeout.
  const c = createPaymentsClient({ baseUrl: base, fetch: send, retry: false, timeoutMs: false, ...options });
  c.use(contractCheck);
  return c;
}

/** The suite's own client: the bootstrap token with every permission. */
export const api = client();

/** A request outside the typed client (malformed bodies, missing auth), still checked against the contract. */
export async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string | FormData; auth?: boolean; base?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== false) headers.Authorization = basicAuth(credentials);
  const url = `${init.base ?? baseUrl}${path}`;
  const response = await send(url, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
  await checkResponse(method, url, response);
  return response;
}

/**
 * Plain JSON requests to a server (the shared target by default, or a test's own) as a token,
 * answered as the server answered and checked against the contract: for request shapes the typed
 * client cannot send (unions, signature headers) or tests of refusals.
 */
export function checkedCalls(base = baseUrl, token: { clientId: string; clientSecret: string } = credentials) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = `${base}${path}`;
    const init: RequestInit = { method, headers: { Authorization: basicAuth(token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await send(url, init);
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
