// Authentication and authorization of every operation, derived from the spec itself: each operation
// rejects a request without credentials (401) and, on the real server, one with wrong credentials
// (401) and one from a token that has every permission but the one the operation names in
// `x-permission` (403, before anything runs). Requests are built from the spec's own examples.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMock, raw } from '../support/api.ts';
import { exampleRequest } from '../support/example-request.ts';
import { createToken, type Permission } from '../support/factories.ts';
import { basicAuth, codeOf } from '../support/raw-requests.ts';
import { operations, type SpecOperation } from '../support/spec.ts';

const PERMISSIONS: Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

const schemesOf = (o: SpecOperation) => (o.operation.security ?? []).flatMap((s) => Object.keys(s));
const secured = operations.filter((o) => schemesOf(o).length > 0);
const basic = secured.filter((o) => schemesOf(o).includes('basicAuth'));

/** Basic credentials of a token with every permission except one. */
const without: Partial<Record<Permission, string>> = {};
beforeAll(async () => {
  if (isMock) return;
  for (const missing of PERMISSIONS) {
    without[missing] = basicAuth(await createToken(PERMISSIONS.filter((p) => p !== missing), `without ${missing}`));
  }
});

describe('access', () => {
  it.each(secured.map((o) => [o.operation.operationId, o] as const))('%s: 401 without credentials', async (_id, o) => {
    const { path, init } = exampleRequest(o);
    const res = await raw(o.method.toUpperCase(), path, { ...init, auth: false });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });

  it.skipIf(isMock).each(secured.map((o) => [o.operation.operationId, o] as const))('%s: 401 with wrong credentials', async (_id, o) => {
    const { path, init } = exampleRequest(o);
    // A clientId of its own per case: failures of one clientId are rate limited (429 after 10).
    const wrong = schemesOf(o).includes('basicAuth') ? basicAuth({ clientId: randomBytes(16).toString('hex'), clientSecret: 'not-the-secret' }) : 'Bearer not-a-token';
    const res = await raw(o.method.toUpperCase(), path, { ...init, headers: { ...init.headers, Authorization: wrong }, auth: false });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(schemesOf(o).includes('basicAuth') ? /^Basic/ : /^Bearer/);
  });

  it.skipIf(isMock).each(basic.map((o) => [`${o.operation.operationId} (${String(o.operation['x-permission'])})`, o] as const))('%s: 403 for a token without that permission', async (_id, o) => {
    const needed = o.operation['x-permission'] as Permission;
    const { path, init } = exampleRequest(o);
    const res = await raw(o.method.toUpperCase(), path, { ...init, headers: { ...init.headers, Authorization: without[needed] ?? '' }, auth: false });
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe('FORBIDDEN');
  });
});
