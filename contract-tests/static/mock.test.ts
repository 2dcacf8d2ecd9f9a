// `npm run mock` answers like the sandbox server: the API under the server's base path on the
// port asked for, the spec's examples as they are, and the server's error body (status and code
// included) where Prism would answer with its own problem+json or a made-up example. Bodies are
// checked against the bundle with the suite's own validator (contract-check.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblem, findOperation } from '../support/contract-check.ts';
import { freePort } from '../support/free-port.ts';
import { rawExchange } from '../support/raw-http.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { spec } from '../support/spec.ts';

const root = resolve(import.meta.dirname, '..', '..');
const version = (spec.info as { version: string }).version;
const auth = { Authorization: `Basic ${btoa('client:secret')}` };
const json = { ...auth, 'content-type': 'application/json' };

let child: ChildProcess;
let port: number;
let output = '';
let base: string;
let origin: string;
let prismOrigin: string;

/** Fails the test unless the answer is one the contract documents for `method path`, body included. */
async function expectContractAnswer(method: string, path: string, res: Response): Promise<void> {
  const op = findOperation(method, path);
  expect(op, `${method} ${path} in the contract`).toBeDefined();
  if (op !== undefined) expect(await contractProblem(op, res)).toBeUndefined();
}

beforeAll(async () => {
  port = await freePort();
  // Own process group (npm → tsx → the script → Prism), stopped as one in afterAll if need be.
  child = spawn('npm', ['run', '--silent', 'mock', '--', '--port', String(port)], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 50_000;
  while (!/API http:\/\/\S+/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm run mock exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm run mock did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  base = /API (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  origin = new URL(base).origin;
  prismOrigin = / prism (http:\/\/\S+)/.exec(output)?.[1] ?? '';
}, 55_000);

afterAll(() => {
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe('npm run mock', () => {
  it('serves on the port asked for, under the base path of the bundle', () => {
    expect(base).toBe(`http://127.0.0.1:${port}/${version}`);
  });

  it.each(['/config', '/customers', '/customers/Customer:019542f5-b3e7-1d02-0000-000000000001', '/transactions'])('answers GET %s with an example the contract allows', async (path) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await expectContractAnswer('GET', path, res);
  });

  it('passes Prefer through: code=404 gives the 404 example, example= picks a named one', async () => {
    const path = '/customers/Customer:019542f5-b3e7-1d02-0000-000000000001';
    const notFound = await fetch(`${base}${path}`, { headers: { ...auth, Prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    await expectContractAnswer('GET', path, notFound);
    expect(await notFound.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const business = await fetch(`${base}${path}`, { headers: { ...auth, Prefer: 'example=business' } });
    expect(business.status).toBe(200);
    await expectContractAnswer('GET', path, business.clone());
    expect(await business.json()).toMatchObject({ customerType: 'BUSINESS' });
  });

  it('answers a path without the base path with 404 ROUTE_NOT_FOUND in the error shape', async () => {
    const res = await fetch(`${origin}/config`, { headers: auth });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    expect(await validateAgainst('#/components/schemas/Error404', body)).toEqual([]);
  });

  it('answers what the HTTP layer refuses in the error shape, like the server (a 100,000-character query: 431)', async () => {
    const { responses, error } = await rawExchange(origin, `GET /${version}/customers?platformCustomerId=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(error).toBeUndefined();
    expect(responses.map((r) => r.status)).toEqual([431]);
    const body = JSON.parse(responses[0]?.body ?? '') as unknown;
    expect(body).toMatchObject({ status: 431, code: 'REQUEST_HEADERS_TOO_LARGE' });
    expect(await validateAgainst('#/components/schemas/Error', body)).toEqual([]);
  });

  it('answers an unknown path under the base path with 404 ROUTE_NOT_FOUND', async () => {
    const res = await fetch(`${base}/no-such-thing`, { headers: auth });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    expect(await validateAgainst('#/components/schemas/Error404', body)).toEqual([]);
  });

  it('answers an invalid body with 400 INVALID_INPUT listing the fields, like the server', async () => {
    const res = await fetch(`${base}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ customerType: 'NOBODY' }) });
    expect(res.status).toBe(400);
    const body = (await res.clone().json()) as { code: string; details: { errors: { field: string }[] } };
    await expectContractAnswer('POST', '/customers', res);
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.details.errors.map((e) => e.field)).toContain('/customerType');
  });

  it('answers missing required fields with 400, where Prism alone picks another documented 4xx', async () => {
    const res = await fetch(`${base}/transfer-in`, { method: 'POST', headers: { ...json, 'Idempotency-Key': 'mock-test-1' }, body: '{}' });
    expect(res.status).toBe(400);
    const body = (await res.clone().json()) as { code: string; details: { errors: { field: string; constraint?: string }[] } };
    await expectContractAnswer('POST', '/transfer-in', res);
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: '/amount', constraint: 'required' })]));
  });

  it('answers a query parameter out of bounds, an unknown one and a bad path parameter with 400 naming them', async () => {
    for (const [path, field] of [
      ['/customers?limit=1000', 'query.limit'],
      ['/customers?colour=red', 'query.colour'],
      ['/customers/not-an-id', 'path.customerId'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { headers: auth });
      expect(res.status, path).toBe(400);
      await expectContractAnswer('GET', new URL(path, 'http://x').pathname, res);
      expect(((await res.json()) as { details: { errors: { field: string }[] } }).details.errors.map((e) => e.field)).toContain(field);
    }
  });

  it('answers a body that is not JSON with 400 INVALID_INPUT (Prism alone never answers)', async () => {
    const res = await fetch(`${base}/customers`, { method: 'POST', headers: json, body: '{', signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(400);
    await expectContractAnswer('POST', '/customers', res);
  });

  it('answers no credentials with 401 UNAUTHORIZED in the error shape and the scheme to use', async () => {
    const res = await fetch(`${base}/config`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    await expectContractAnswer('GET', '/config', res.clone());
    expect(await res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const agent = await fetch(`${base}/agents/me`);
    expect(agent.status).toBe(401);
    expect(agent.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('answers a method the path does not have with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const res = await fetch(`${base}/config`, { method: 'PUT', headers: json, body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(await res.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('stops Prism when it is stopped (SIGTERM to npm alone, which passes it on)', async () => {
    expect(prismOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${prismOrigin}/config`)).status).toBe(401);
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    await new Promise((r) => setTimeout(r, 500));
    expect(await fetch(`${prismOrigin}/config`).then(() => 'answering', () => 'gone')).toBe('gone');
  });
});
