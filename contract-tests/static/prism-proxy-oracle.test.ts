// The Prism proxy oracle of the contract suite's PGlite run, tested against a server that is wrong on purpose:
// `prism proxy --errors` in front of a tiny HTTP server whose GET /config answers a body that
// violates the contract (or a correct one), read by the same code checkResponse and the suite's
// fetch use (prismVerdict, proxyFetch). If this passes, a violation in the PGlite run cannot go
// unnoticed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type PrismProcess } from '../support/prism-process.ts';
import { prismVerdict } from '../support/prism-verdict.ts';
import { proxyFetch } from '../support/proxy-fetch.ts';
import type { ProxyEvent } from '../support/proxy-tally.ts';

const spec = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'generated', 'openapi.json'), 'utf8')) as {
  paths: { '/config': { get: { responses: { '200': { content: { 'application/json': { examples: Record<string, { value: Record<string, unknown> }> } } } } } } };
};
const validConfig = Object.values(spec.paths['/config'].get.responses['200'].content['application/json'].examples)[0]?.value ?? {};
const auth = { Authorization: `Basic ${btoa('client:secret')}` };

/** What the tiny server answers; each test sets it. */
let answer: { status: number; body: unknown } = { status: 200, body: validConfig };
let received: string[] = [];

describe('the Prism proxy oracle', () => {
  let upstream: Server;
  let prism: PrismProcess;
  let serverBase: string;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    serverBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/2025-10-13`;
    prism = await startPrism(['proxy', 'generated/openapi.yaml', serverBase, '--errors'], 50_000);
  }, 55_000);

  afterAll(async () => {
    prism?.stop();
    await new Promise((done) => upstream?.close(done));
  });

  const get = (path: string) => fetch(`${prism.origin}${path}`, { headers: auth });

  it('passes a correct answer, forwarded to the upstream under its base path', async () => {
    answer = { status: 200, body: validConfig };
    received = [];
    const res = await get('/config');
    expect(await prismVerdict(res)).toEqual({ kind: 'passed' });
    expect(await res.json()).toEqual(validConfig);
    expect(received).toEqual(['GET /2025-10-13/config']);
  });

  it('reports an answer that violates the contract, with what is wrong', async () => {
    answer = { status: 200, body: { ...validConfig, id: 42, supportedCurrencies: 'USD' } };
    const verdict = await prismVerdict(await get('/config'));
    expect(verdict.kind).toBe('violation');
    const details = verdict.kind === 'violation' ? verdict.details : '';
    expect(details).toContain('response.body.id');
    expect(details).toContain('response.body.supportedCurrencies');
  });

  it('reports an undocumented status', async () => {
    answer = { status: 418, body: { status: 418, code: 'TEAPOT', message: 'no' } };
    expect((await prismVerdict(await get('/config'))).kind).toBe('violation');
  });

  it('refuses an invalid request without forwarding it', async () => {
    received = [];
    const verdict = await prismVerdict(await get('/customers/not-an-id'));
    expect(verdict).toMatchObject({ kind: 'refused', type: 'UNPROCESSABLE_ENTITY' });
    expect(received).toEqual([]);
  });

  it('the suite resends a refused request to the server, which must refuse it too', async () => {
    const events: ProxyEvent[] = [];
    const send = proxyFetch(prism.origin, serverBase, (e) => events.push(e));
    answer = { status: 400, body: { status: 400, code: 'INVALID_INPUT', message: 'no' } };
    received = [];
    const refused = await send(`${prism.origin}/customers/not-an-id`, { headers: auth });
    expect(refused.status).toBe(400);
    expect(received).toEqual(['GET /2025-10-13/customers/not-an-id']);
    expect(events).toEqual([{ event: 'refused', type: 'UNPROCESSABLE_ENTITY', status: 400 }]);
    // A request Prism calls invalid and the server accepts: one of them is wrong about the contract.
    answer = { status: 200, body: {} };
    await expect(send(`${prism.origin}/customers/not-an-id`, { headers: auth })).rejects.toThrow(/Prism refuses the request \(UNPROCESSABLE_ENTITY\) but the server answers 200/);
  });

  it('sends a body Prism would not answer straight to the server, counted', async () => {
    const events: ProxyEvent[] = [];
    const send = proxyFetch(prism.origin, serverBase, (e) => events.push(e));
    answer = { status: 400, body: { status: 400, code: 'INVALID_INPUT', message: 'no' } };
    received = [];
    const res = await send(`${prism.origin}/tokens`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name": ' });
    expect(res.status).toBe(400);
    expect(received).toEqual(['POST /2025-10-13/tokens']);
    expect(events).toEqual([{ event: 'direct', reason: 'malformed JSON, Prism never answers' }]);
  });
});
