// The dredd hooks of the contract (loaded through hooks.cjs). dredd makes one transaction per
// documented status; these run the successful ones as real, valid requests and skip the others
// (their statuses are the contract suite's). Before validation they strip the charset Express adds
// (dredd compares Content-Type literally) and check the body against the real 3.1 schema, because
// dredd's 3.0 parser ignores allOf, discriminator, pattern and format, and where it has no schema
// (for this spec: every body) it checks the body against a schema derived from the example: that
// check is replaced by the 3.1 one; where dredd has a schema of its own both run.
import { randomUUID } from 'node:crypto';
import { validateAgainst } from '../../contract-tests/support/schema-validator.ts';
import { deref, operations, spec, type SpecOperation } from '../../contract-tests/support/spec.ts';
import { createFixtures, multipart, type Fixtures } from './fixtures.ts';
import { exampleParts, filled, parameters, serverParts, type RequestParts } from './requests.ts';
import { basic, type Credentials, type Json } from './server-calls.ts';

/**
 * Successful statuses dredd cannot produce on the real server, with the reason: the one place
 * they are listed (`operationId status`). Each is still run against the mock.
 */
// Empty today: signed retries are answered by a before hook (it asks for the 202 challenge and
// signs with the sandbox's valid signature), and what is used up or one-time (device codes,
// one-time codes, quotes, pending actions) comes fresh for each transaction.
export const UNTESTABLE_ON_SERVER: Record<string, string> = {};

/** The parts of a dredd transaction the hooks use (dredd's own object has more). */
export interface DreddTransaction {
  name: string;
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: string };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  fullPath: string;
  skip: boolean;
  fail: boolean | string;
}

type Hook<T> = (data: T, done: () => void) => void;
/** dredd's `hooks` module, as a hook file receives it. */
export interface DreddHooksApi {
  beforeAll(hook: Hook<DreddTransaction[]>): void;
  beforeEach(hook: Hook<DreddTransaction>): void;
  beforeEachValidation(hook: Hook<DreddTransaction>): void;
}

export interface HookOptions {
  /** `server`: fixtures and real ids; `mock`: the spec's examples as they are (a stateless mock). */
  kind: 'server' | 'mock';
  /** The API base URL (with the version segment on the server). */
  baseUrl: string;
  credentials: Credentials;
  /** Only these operationIds are run (the others are skipped and not counted); all when absent. */
  only?: string[];
}

export interface HookCounts {
  /** Successful-status transactions skipped because they are in UNTESTABLE_ON_SERVER. */
  listed: number;
  /** Transactions of documented error statuses, skipped. */
  errorStatuses: number;
  /** Transactions left out by `only`. */
  filtered: number;
  /** Response bodies checked against the 3.1 schema. */
  bodiesChecked: number;
  /** `operationId status` of every successful status run (sent, or failed while preparing it). */
  run: Set<string>;
}

/** The operation of a transaction: dredd's resource name is the path template (plus any `{?query}`). */
function operationOf(t: DreddTransaction): SpecOperation | undefined {
  const path = t.origin.resourceName.replace(/\{\?[^}]*\}$/, '');
  return operations.find((o) => o.path === path && o.method === t.request.method.toLowerCase());
}

/** The schema pointer of a JSON response, or undefined when the status documents no body. */
function responseSchema(o: SpecOperation, status: string): string | undefined {
  const response = deref<Json>(o.operation.responses[status]);
  const content = response?.content as Record<string, { schema?: { $ref?: string } }> | undefined;
  return content?.['application/json']?.schema?.$ref;
}

function applyRequest(t: DreddTransaction, o: SpecOperation, parts: RequestParts, basePath: string, auth: string | undefined): void {
  const path = filled(o.path, parts.path);
  const query = new URLSearchParams(parts.query).toString();
  t.request.uri = `${path}${query === '' ? '' : `?${query}`}`;
  t.fullPath = `${basePath}${t.request.uri}`;
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': t.request.headers['User-Agent'] ?? 'Dredd' };
  if (auth !== undefined) headers.Authorization = auth;
  const takesKey = parameters(o).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  if (takesKey) headers['Idempotency-Key'] = randomUUID();
  if (parts.form !== undefined) {
    const { contentType, body } = multipart(parts.form);
    headers['Content-Type'] = contentType;
    t.request.body = body;
  } else if (parts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    t.request.body = JSON.stringify(parts.body);
  } else {
    t.request.body = '';
  }
  t.request.headers = { ...headers, ...parts.headers };
}

/** The hooks for one run, and what they skipped. */
export function contractHooks(options: HookOptions): { register: (hooks: DreddHooksApi) => void; counts: HookCounts } {
  const counts: HookCounts = { listed: 0, errorStatuses: 0, filtered: 0, bodiesChecked: 0, run: new Set() };
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, '');
  let fixtures: Fixtures | undefined;
  let setupError: string | undefined;

  const authFor = (o: SpecOperation): string | undefined => {
    const schemes = (o.operation.security ?? (spec.security as Record<string, string[]>[] | undefined) ?? []).flatMap((s) => Object.keys(s));
    if (schemes.includes('bearerAuth')) return `Bearer ${fixtures?.agentToken ?? 'mock-agent-access-token'}`;
    if (schemes.includes('basicAuth')) return basic(options.credentials);
    return undefined;
  };

  const register = (hooks: DreddHooksApi): void => {
    hooks.beforeAll((_transactions, done) => {
      if (options.kind === 'mock') return done();
      createFixtures(options.baseUrl, options.credentials)
        .then((f) => (fixtures = f))
        .catch((error: unknown) => (setupError = error instanceof Error ? (error.stack ?? error.message) : String(error)))
        .finally(done);
    });

    hooks.beforeEach((t, done) => {
      const o = operationOf(t);
      const status = Number(t.expected.statusCode);
      if (o === undefined) {
        t.fail = `no operation of the contract for ${t.request.method} ${t.origin.resourceName}`;
        return done();
      }
      if (status < 200 || status >= 300) {
        counts.errorStatuses++;
        t.skip = true;
        return done();
      }
      if (options.only !== undefined && !options.only.includes(o.operation.operationId)) {
        counts.filtered++;
        t.skip = true;
        return done();
      }
      if (options.kind === 'server' && UNTESTABLE_ON_SERVER[`${o.operation.operationId} ${status}`] !== undefined) {
        counts.listed++;
        t.skip = true;
        return done();
      }
      counts.run.add(`${o.operation.operationId} ${status}`);
      if (setupError !== undefined) {
        t.fail = `fixtures could not be made: ${setupError}`;
        return done();
      }
      const prepared =
        options.kind === 'server' && fixtures !== undefined
          ? serverParts(o, status, fixtures)
          : Promise.resolve({ ...exampleParts(o), headers: { Prefer: `code=${status}` } });
      prepared
        .then((parts) => applyRequest(t, o, parts, basePath, authFor(o)))
        .catch((error: unknown) => (t.fail = `preparing the request failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(done);
    });

    hooks.beforeEachValidation((t, done) => {
      const real = t.real;
      const o = operationOf(t);
      if (real === undefined || o === undefined) return done();
      // Express answers `application/json; charset=utf-8`; the contract's media type is the part before `;`.
      for (const name of Object.keys(real.headers)) {
        if (name.toLowerCase() === 'content-type') real.headers[name] = (real.headers[name] ?? '').replace(/;\s*charset=utf-8$/i, '');
      }
      // dredd expects every documented response header; the contract sends only the required ones always.
      const documented = (deref<Json>(o.operation.responses[t.expected.statusCode])?.headers ?? {}) as Record<string, Json>;
      for (const [name, header] of Object.entries(documented)) {
        if (deref<Json>(header).required === true) continue;
        for (const expected of Object.keys(t.expected.headers)) if (expected.toLowerCase() === name.toLowerCase()) delete t.expected.headers[expected];
      }
      const pointer = responseSchema(o, t.expected.statusCode);
      if (pointer === undefined || real.body === '' || String(real.statusCode) !== t.expected.statusCode) return done();
      // Without a schema dredd checks the body against one derived from the spec's example (every
      // property of the example required, one oneOf variant only); the 3.1 schema's check replaces it.
      if (t.expected.bodySchema === undefined) delete t.expected.body;
      let value: unknown;
      try {
        value = JSON.parse(real.body);
      } catch {
        t.fail = `body is not JSON: ${real.body.slice(0, 200)}`;
        return done();
      }
      validateAgainst(pointer, value)
        .then((problems) => {
          counts.bodiesChecked++;
          if (problems.length > 0) t.fail = `body does not match ${pointer} (3.1 schema): ${problems.map((p) => `${p.instanceLocation} ${p.keyword}`).join('; ')}`;
        })
        .catch((error: unknown) => (t.fail = `3.1 schema validation errored: ${String(error)}`))
        .finally(done);
    });
  };
  return { register, counts };
}
