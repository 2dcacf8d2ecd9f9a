// Behaviour shared by every operation of the real server: unknown routes and methods, malformed
// bodies, no leaked internals, the HTTP layer's own refusals (through a bare socket), and the docs
// and spec it serves.
// These are properties of the server, not of the contract's operations, so they do not run on
// the mock, and go to the server directly (past the Prism proxy, which knows only the contract).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, inject } from 'vitest';
import { credentials, describeServer, itServer, serverBaseUrl as baseUrl } from '../support/api.ts';
import { basicAuth, jsonBody } from '../support/raw-requests.ts';
import { rawExchange, type RawResponse } from '../support/raw-http.ts';
import { validateAgainst } from '../support/schema-validator.ts';

const auth = { Authorization: basicAuth(credentials) };
const origin = inject('origin');

async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${baseUrl}${path}`, { method, headers: { ...auth, ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { status: number; code: string; message: string } };
}

describeServer('request ids', () => {
  itServer('every answer, success or error, carries its own X-Request-Id', async () => {
    const answers = await Promise.all([call('GET', '/config'), call('GET', '/config'), call('GET', '/no-such-thing'), call('POST', '/tokens', { headers: { 'content-type': 'application/json' }, body: '{' })]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describeServer('errors in the documented shape', () => {
  itServer('an unknown route is 404 ROUTE_NOT_FOUND', async () => {
    const res = await call('GET', '/no-such-thing');
    expect(res).toMatchObject({ status: 404, body: { status: 404, code: 'ROUTE_NOT_FOUND' } });
  });

  itServer('a method the path does not have is 405 METHOD_NOT_ALLOWED', async () => {
    const res = await call('DELETE', '/config');
    expect(res).toMatchObject({ status: 405, body: { status: 405, code: 'METHOD_NOT_ALLOWED' } });
  });

  itServer('malformed JSON is 400 INVALID_INPUT', async () => {
    const res = await call('POST', '/tokens', { headers: { 'content-type': 'application/json' }, body: '{"name": ' });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
  });

  itServer('an unsupported content type is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call('POST', '/tokens', { headers: { 'content-type': 'text/plain' }, body: 'name=x' });
    expect(res).toMatchObject({ status: 415, body: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  itServer('a body over 1 MB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await call('POST', '/tokens', jsonBody({ name: 'x'.repeat(1_100_000), permissions: ['VIEW'] }));
    expect(res).toMatchObject({ status: 413, body: { status: 413, code: 'PAYLOAD_TOO_LARGE' } });
  });

  itServer('an unknown query parameter is 400 INVALID_INPUT', async () => {
    const res = await call('GET', '/tokens?colour=red');
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
  });

  itServer('error bodies carry no stack traces or internals, and responses no x-powered-by', async () => {
    const res = await fetch(`${baseUrl}/tokens`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name": ' });
    const text = await res.text();
    expect(text).not.toMatch(/\bat \S+ \(|node_modules|SyntaxError|stack/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describeServer('refusals of the HTTP layer, in the error shape (through a bare socket)', () => {
  // Read when a test runs: the mock target (where these are skipped) has no server URL.
  const server = () => new URL(baseUrl);
  const authorization = auth.Authorization;
  /** An answer in the documented error body, with its own X-Request-Id, closing the connection. */
  async function expectErrorAnswer(answer: RawResponse | undefined, status: number, code: string) {
    expect(answer?.status).toBe(status);
    expect(answer?.headers['content-type']).toMatch(/^application\/json/);
    expect(answer?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer?.headers.connection).toBe('close');
    const body = JSON.parse(answer?.body ?? '') as unknown;
    expect(body).toMatchObject({ status, code, message: expect.any(String) });
    expect(await validateAgainst('#/components/schemas/Error', body)).toEqual([]);
  }

  itServer('a body longer than its Content-Length: the request is answered, then the extra bytes get 400 INVALID_INPUT', async () => {
    const base = server();
    const body = '{"name":"x"}';
    // The request runs a while (a test control delays its answer): the refusal must wait for it.
    const request = `GET ${base.pathname}/config HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: ${authorization}\r\nX-Test-Delay-Ms: 300\r\nContent-Length: 2\r\n\r\n${body}`;
    const { responses, error } = await rawExchange(origin, request);
    expect(error).toBeUndefined();
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expect(JSON.parse(responses[0]?.body ?? '')).toHaveProperty('id');
    await expectErrorAnswer(responses[1], 400, 'INVALID_INPUT');
  });

  itServer('a malformed chunked body (the probe\'s, no credentials) is 400 INVALID_INPUT at once, and the connection closed', async () => {
    const base = server();
    const request = `POST ${base.pathname}/customers HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`;
    const started = performance.now();
    // The request is running (Express has it, waiting for its body), which must not hold the answer.
    const { responses, error } = await rawExchange(origin, request);
    const ms = performance.now() - started;
    expect(error).toBeUndefined();
    expect(responses).toHaveLength(1);
    await expectErrorAnswer(responses[0], 400, 'INVALID_INPUT');
    // Node's own server answers in about 13 ms; the next timeout is minutes away.
    expect(ms).toBeLessThan(2_000);
  });

  itServer('a chunked body that turns malformed after a valid chunk is refused alike, and nothing is created', async () => {
    const base = server();
    const platformCustomerId = `chunked-${randomUUID()}`;
    const body = JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId });
    const request = `POST ${base.pathname}/customers HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\nzz\r\n\r\n`;
    const { responses, error } = await rawExchange(origin, request);
    expect(error).toBeUndefined();
    expect(responses).toHaveLength(1);
    await expectErrorAnswer(responses[0], 400, 'INVALID_INPUT');
    const listed = await call('GET', `/customers?platformCustomerId=${platformCustomerId}`);
    expect(listed.body).toMatchObject({ data: [] });
  });

  itServer('a 20,000-character path is 431 REQUEST_HEADERS_TOO_LARGE', async () => {
    const base = server();
    const { responses, error } = await rawExchange(origin, `GET ${base.pathname}/customers/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
    expect(error).toBeUndefined();
    expect(responses).toHaveLength(1);
    await expectErrorAnswer(responses[0], 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  itServer('a 100,000-character query value is 431 too, read to the end: no reset', async () => {
    const base = server();
    const { responses, error } = await rawExchange(origin, `GET ${base.pathname}/customers?platformCustomerId=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
    expect(error).toBeUndefined();
    expect(responses).toHaveLength(1);
    await expectErrorAnswer(responses[0], 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  itServer('bytes that are not HTTP are 400 INVALID_INPUT; a long path under 16 KiB reaches the API', async () => {
    const base = server();
    const garbage = await rawExchange(origin, 'HELLO THERE\r\n\r\n');
    expect(garbage.error).toBeUndefined();
    await expectErrorAnswer(garbage.responses[0], 400, 'INVALID_INPUT');
    const long = await rawExchange(origin, `GET ${base.pathname}/no-such/${'a'.repeat(10_000)} HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n\r\n`);
    expect(long.responses.map((r) => [r.status, (JSON.parse(r.body) as { code: string }).code])).toEqual([[404, 'ROUTE_NOT_FOUND']]);
  });
});

describeServer('docs and spec', () => {
  const generated = resolve(import.meta.dirname, '..', '..', 'generated');

  itServer('serves the bundled spec as YAML and JSON, identical to generated/', async () => {
    const yaml = await fetch(`${origin}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toBe(readFileSync(resolve(generated, 'openapi.yaml'), 'utf8'));
    const json = await fetch(`${origin}/openapi.json`);
    expect(await json.json()).toEqual(JSON.parse(readFileSync(resolve(generated, 'openapi.json'), 'utf8')));
  });

  itServer('serves the offline docs page at /docs', async () => {
    const res = await fetch(`${origin}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('Payments Service API');
    // The Redoc app is inlined: no script is fetched from elsewhere, so the page works offline.
    expect(html).not.toMatch(/<script[^>]*\ssrc=["']https?:/);
    expect(html).not.toMatch(/import\s*\{[^}]*\}\s*from\s*["']https?:/);
  });
});
