// The fuzzer's own test: against a deliberately broken server it reports each kind of defect it
// exists to find, and against a correct answer it reports nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz } from '../fuzz/fuzzer.ts';
import { operations, spec } from '../support/spec.ts';

type Json = Record<string, unknown>;
const tokenExample = ((((spec.paths['/tokens/{tokenId}'] as Json).get as Json).responses as Json)['200'] as { content: { 'application/json': { examples: { token: { value: Json } } } } }).content['application/json'].examples.token.value;

const send = (res: import('node:http').ServerResponse, status: number, body?: unknown) => {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

/** Wrong in four ways: a body outside its schema, a crash on NUL, valid input refused, a delete that leaves the object; right about reading a token. */
function brokenServer(): Server {
  return createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/2025-10-13/, '').split('?')[0] ?? '';
      if (req.method === 'GET' && path === '/config') return send(res, 200, { id: 5 });
      if (req.method === 'POST' && path === '/tokens') {
        if (text.includes('\\u0000')) return send(res, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'boom' });
        return send(res, 400, { status: 400, code: 'INVALID_INPUT', message: 'The request is invalid.', details: { errors: [{ field: '/name', message: 'not today' }] } });
      }
      const token = /^\/tokens\/([^/]+)$/.exec(path)?.[1];
      if (token !== undefined && !/^Token:[0-9a-f-]{36}$/.test(decodeURIComponent(token))) {
        return send(res, 400, { status: 400, code: 'INVALID_INPUT', message: 'The request is invalid.', details: { errors: [{ field: 'path.tokenId', message: 'not a token id' }] } });
      }
      if (token !== undefined && req.method === 'GET') return send(res, 200, { ...tokenExample, id: decodeURIComponent(token) });
      if (token !== undefined && req.method === 'DELETE') return send(res, 204);
      return send(res, 404, { status: 404, code: 'NOT_FOUND', message: 'No such thing.' });
    });
  });
}

describe('the fuzzer finds what it exists to find', () => {
  let server: Server;
  let baseUrl = '';
  beforeAll(async () => {
    server = brokenServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ops = (...ids: string[]) => operations.filter((o) => ids.includes(o.operation.operationId));
  const authorization = { basic: `Basic ${btoa('id:secret')}` };

  it('a broken server: a body outside the contract, a 5xx, a valid request refused, a deleted object still there', async () => {
    const report = await fuzz({ baseUrl, seed: 42, requests: 400, operations: ops('getPlatformConfig', 'createToken', 'getToken', 'deleteToken'), authorization });
    const rules = new Set(report.failures.map((f) => f.rule.replace(/:.*$/s, '').replace(/ at GET .*$/, '')));
    expect([...rules]).toEqual(expect.arrayContaining(['answer outside the contract', 'a 5xx answer', 'a valid request refused as INVALID_INPUT', 'deleted object still readable']));
    // Each failure names the seed's request so it can be replayed.
    expect(report.failures[0]?.request).toMatch(/^(GET|POST|DELETE|PATCH|PUT) http|^after DELETE/);
  });

  it('the same seed makes the same requests', async () => {
    const run = () => fuzz({ baseUrl, seed: 7, requests: 60, operations: ops('createToken', 'getToken'), authorization });
    const [first, second] = [await run(), await run()];
    expect(second.failures.map((f) => f.request.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'uuid'))).toEqual(
      first.failures.map((f) => f.request.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'uuid')),
    );
    expect(second.statuses).toEqual(first.statuses);
  });

  it('a correct answer passes: no failures on the operation the broken server gets right', async () => {
    const report = await fuzz({ baseUrl, seed: 42, requests: 200, operations: ops('getToken'), authorization });
    expect(report.failures).toEqual([]);
    expect(report.invalid).toBeGreaterThan(0);
  });
});
