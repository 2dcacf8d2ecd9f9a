// Who may do what: a token can only hand out permissions it holds itself, and guessing a token's
// secret is cut short: after 10 failed authentications for one clientId within 5 minutes, every
// request with that clientId gets 429 with Retry-After, even with the right secret.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { api, describeServer, errorOf, itServer, raw, unique } from '../support/api.ts';
import { clientFor, createToken as newToken, type Permission } from '../support/factories.ts';
import { basicAuth } from '../support/raw-requests.ts';

const basicOf = (clientId: string, clientSecret: string) => basicAuth({ clientId, clientSecret });
const tokenNames = async () => new Set((await api.GET('/tokens', { params: { query: { limit: 100 } } })).data?.data.map((t) => t.name));

describeServer('createToken grants', () => {
  itServer('403: a token cannot grant a permission it does not hold, and nothing is created', async () => {
    const manager = clientFor(await newToken(['MANAGE']));
    for (const permissions of [['TRANSACT'], ['VIEW'], ['MANAGE', 'TRANSACT']] as Permission[][]) {
      const name = `escalation ${unique()}`;
      const { response, error } = await manager.POST('/tokens', { body: { name, permissions } });
      expect(response.status, permissions.join()).toBe(403);
      expect(error).toMatchObject({ code: 'FORBIDDEN' });
      expect(error?.message).toContain(permissions.filter((p) => p !== 'MANAGE').join(', '));
      expect(await tokenNames()).not.toContain(name);
    }
  });

  itServer('201: a token grants what it holds, or less', async () => {
    const manager = clientFor(await newToken(['MANAGE', 'VIEW']));
    for (const permissions of [['VIEW'], ['MANAGE'], ['VIEW', 'MANAGE']] as Permission[][]) {
      const { response, data } = await manager.POST('/tokens', { body: { name: `grant ${unique()}`, permissions } });
      expect(response.status).toBe(201);
      expect(data?.permissions.sort()).toEqual([...permissions].sort());
    }
  });
});

describeServer('failed authentications', () => {
  itServer('429 after 10 failures for one clientId, with Retry-After, even with the right secret; other clients are not affected', async () => {
    const token = await newToken(['VIEW']);
    const other = await newToken(['VIEW']);
    for (let i = 0; i < 10; i++) {
      const res = await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(token.clientId, `wrong-${i}`) } });
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    for (const secret of ['wrong-again', token.clientSecret]) {
      const res = await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(token.clientId, secret) } });
      expect(res.status).toBe(429);
      expect(await errorOf(res)).toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(300);
    }
    expect((await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(other.clientId, other.clientSecret) } })).status).toBe(200);
  });

  itServer('an unknown clientId is counted too, without reaching the token table', async () => {
    const unknown = randomBytes(16).toString('hex');
    for (let i = 0; i < 10; i++) await raw('GET', '/tokens', { auth: false, headers: { Authorization: basicOf(unknown, 'x') } });
    const res = await raw('GET', '/tokens', { auth: false, headers: { Authorization: basicOf(unknown, 'x') } });
    expect(res.status).toBe(429);
  });
});
