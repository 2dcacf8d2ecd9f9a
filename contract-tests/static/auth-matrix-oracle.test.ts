// The matrix's own test: against a server that forgets authentication and leaks another tenant's
// objects it reports every such cell, and against correct answers it reports nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMatrix, type MatrixCase } from '../auth-matrix/matrix.ts';
import { operations } from '../support/spec.ts';

const TENANT_TOKEN = 'Token:019542f5-b3e7-1d02-0000-0000000000aa';
const token = (id: string) => ({ id, name: 'x', permissions: ['VIEW'], clientId: '4f1c2a9e8b7d4c3aa1e2f3b4c5d6e7f8', createdAt: '2025-10-13T12:00:00Z', updatedAt: '2025-10-13T12:00:00Z' });

/** `/broken` answers everyone with the tenant's token; `/correct` answers 401 without credentials and 404 to strangers. */
function server(): Server {
  return createServer((req, res) => {
    const [, mode, , ...rest] = (req.url ?? '').split('/');
    const path = `/${rest.join('/')}`;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (mode === 'correct') {
      if (req.headers.authorization === undefined) return reply(401, { status: 401, code: 'UNAUTHORIZED', message: 'Missing credentials.', reason: 'Missing Basic credentials' });
      return reply(404, { status: 404, code: 'TOKEN_NOT_FOUND', message: 'No such token.' });
    }
    if (path === '/tokens') return reply(200, { data: [token(TENANT_TOKEN)], hasMore: false, totalCount: 1 });
    if (req.headers.authorization === 'Bearer stranger') return reply(403, { status: 403, code: 'FORBIDDEN', message: 'Not yours.' });
    return reply(200, token(TENANT_TOKEN));
  });
}

describe('the auth matrix finds what it exists to find', () => {
  let http: Server;
  let origin = '';
  beforeAll(async () => {
    http = server();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  const ops = operations.filter((o) => ['getToken', 'listTokens'].includes(o.operation.operationId));
  const cases = (strangerHeader: string): MatrixCase[] => [
    { name: 'no credentials', applies: () => true, authorization: async () => undefined, expect: { statuses: [401] } },
    { name: 'another tenant', applies: () => true, authorization: async () => strangerHeader, expect: 'isolated' },
  ];
  const request = (op: (typeof ops)[number]) => ({ path: op.path.replace('{tokenId}', encodeURIComponent(TENANT_TOKEN)), init: { headers: {} } });

  it('a server that ignores credentials and leaks: every cell reported', async () => {
    const leaking = await runMatrix({ baseUrl: `${origin}/broken/v`, operations: ops, cases: cases('Basic c3RyYW5nZXI6eA=='), request, tenantIds: new Set([TENANT_TOKEN]) });
    expect(leaking.failures).toHaveLength(4);
    expect(leaking.failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no credentials × getToken .*expected 401, got 200/),
        expect.stringMatching(/^no credentials × listTokens .*expected 401, got 200/),
        expect.stringMatching(/^another tenant × getToken .*the path names the tenant's object, expected 404, got 200/),
        expect.stringMatching(/^another tenant × listTokens .*the answer holds the tenant's Token:/),
      ]),
    );
    const revealing = await runMatrix({ baseUrl: `${origin}/broken/v`, operations: ops.filter((o) => o.operation.operationId === 'getToken'), cases: cases('Bearer stranger').slice(1), request, tenantIds: new Set([TENANT_TOKEN]) });
    expect(revealing.failures).toEqual([expect.stringMatching(/403 reveals that the tenant's object exists/)]);
  });

  it('a correct server: nothing reported', async () => {
    const report = await runMatrix({ baseUrl: `${origin}/correct/v`, operations: ops.filter((o) => o.operation.operationId === 'getToken'), cases: cases('Basic c3RyYW5nZXI6eA=='), request, tenantIds: new Set([TENANT_TOKEN]) });
    expect(report.failures).toEqual([]);
    expect(report.cells).toBe(2);
  });
});
