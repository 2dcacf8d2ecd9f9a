// The dredd oracle (scripts/dredd/) catches a server that breaks the contract: the same runner
// core and hooks as `npm run test:dredd`, against a tiny HTTP server that answers four operations
// with the spec's own examples, three of them deliberately broken: a field of the wrong type and a
// required field missing inside a oneOf (the hooks' 3.1 schema check), and a body sent as
// text/plain (dredd's own header check). The others come with Express's `; charset=utf-8`.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddResult } from '../../scripts/dredd/run-dredd.ts';
import { deref, operations } from '../support/spec.ts';

type Json = Record<string, unknown>;

/** The first example of an operation's 200 response. */
function example(operationId: string): Json {
  const o = operations.find((op) => op.operation.operationId === operationId);
  const content = deref<Json>(o?.operation.responses['200']).content as Record<string, { examples: Record<string, unknown> }>;
  const first = Object.values(content['application/json']?.examples ?? {})[0];
  return structuredClone(deref<{ value: Json }>(first).value);
}

const validTokens = example('listTokens');
const wrongType = { ...example('getPlatformConfig'), name: 42 };
// An external account whose accountInfo (a oneOf by accountType) lacks a field its variant requires.
const brokenVariant = example('getCustomerExternalAccount');
const accountInfo = brokenVariant.accountInfo as Json;

const token = example('getToken');
const plainText = `/tokens/${encodeURIComponent(String(token.id))}`;

const answers: Record<string, Json> = {
  [plainText]: token,
  '/tokens': validTokens,
  '/config': wrongType,
  [`/customers/external-accounts/${encodeURIComponent(String(brokenVariant.id))}`]: brokenVariant,
};

let server: Server;
let result: DreddResult;

beforeAll(async () => {
  if (accountInfo.accountType !== 'USD_ACCOUNT') throw new Error('the getCustomerExternalAccount example is no longer a USD account');
  delete accountInfo.routingNumber;
  server = createServer((req, res) => {
    const body = answers[(req.url ?? '').split('?')[0] ?? ''];
    const path = (req.url ?? '').split('?')[0];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': path === plainText ? 'text/plain' : 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body ?? { status: 404, code: 'NOT_FOUND', message: 'not here' }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  result = await runDredd({
    kind: 'mock',
    baseUrl: `http://127.0.0.1:${address.port}`,
    credentials: { clientId: 'client', clientSecret: 'secret' },
    only: ['listTokens', 'getToken', 'getPlatformConfig', 'getCustomerExternalAccount'],
  });
}, 90_000);

afterAll(() => new Promise<void>((done) => (server === undefined ? done() : server.close(() => done()))));

describe('the dredd oracle on a deliberately broken server', () => {
  it('passes the valid answer and fails the three broken ones', () => {
    expect({ passed: result.passed, failed: result.failed }, result.failures.join('\n')).toEqual({ passed: 1, failed: 3 });
  });

  it('names the wrong content type', () => {
    expect(result.failures.find((f) => f.includes(plainText))).toMatch(/content-type/i);
  });

  it('names the field of the wrong type', () => {
    expect(result.failures.find((f) => f.includes('/config'))).toMatch(/PlatformConfig.*#\/name/);
  });

  it('names the oneOf variant whose required field is missing', () => {
    expect(result.failures.find((f) => f.includes('/customers/external-accounts/'))).toMatch(/ExternalAccount .*#\/accountInfo/);
  });
});
