// Failed authentications are limited per clientId and per address (spec/guides/authentication.md):
// guessing a secret from one address is throttled, but never stops the token's owner calling from
// another, even though clientIds are not secret. After 10 failures from an address, that address
// regains one attempt every 30 seconds. On a server of this file's own that believes the
// loopback proxy's X-Forwarded-For (TRUST_PROXY), so each request can come from any address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, target } from '../support/api.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { advanceClock, jsonHeaders, newCredentials } from '../support/server-process.ts';

const SECOND = 1_000;

describe.skipIf(target === 'prism')('failed authentications, per clientId and address', () => {
  const admin = newCredentials();
  let server: TestServer;
  beforeAll(async () => {
    server = await startInProcess({ TRUST_PROXY: 'loopback', PAYMENTS_CLIENT_ID: admin.clientId, PAYMENTS_CLIENT_SECRET: admin.clientSecret });
  });
  afterAll(async () => server?.stop());

  const newToken = async () => {
    const res = await fetch(`${server.baseUrl}/tokens`, { method: 'POST', headers: jsonHeaders(admin), body: JSON.stringify({ name: 'owner', permissions: ['VIEW'] }) });
    expect(res.status).toBe(201);
    return (await res.json()) as { clientId: string; clientSecret: string };
  };
  const from = (address: string, credentials: { clientId: string; clientSecret: string }) =>
    fetch(`${server.baseUrl}/config`, { headers: { Authorization: basicAuth(credentials), 'X-Forwarded-For': address } });
  const wrong = (token: { clientId: string }, i: number) => ({ clientId: token.clientId, clientSecret: `sk_sandbox_wrong${i}` });
  /** A fresh start: every address's attempts have come back. */
  const rested = () => advanceClock(server.origin, 5 * 60 * SECOND + SECOND);

  it("wrong secrets from one address never stop the owner from another, cached or not; the guessing address is refused even the right secret", async () => {
    await rested();
    const token = await newToken();
    // The owner has used the token from both its addresses: each process cached it for them.
    expect((await from('198.51.100.7', token)).status).toBe(200);
    expect((await from('203.0.113.9', token)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await from('192.0.2.66', wrong(token, i))).status, `failure ${i + 1}`).toBe(401);
    const refused = await from('192.0.2.66', wrong(token, 10));
    expect(refused.status).toBe(429);
    expect(await errorOf(refused)).toMatchObject({ code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
    expect((await from('192.0.2.66', token)).status).toBe(429);
    for (const owner of ['198.51.100.7', '203.0.113.9', '198.51.100.8']) expect((await from(owner, token)).status, owner).toBe(200);
    // And wrong secrets of the owner's own address are counted for it alone.
    expect((await from('198.51.100.7', wrong(token, 11))).status).toBe(401);
  });

  it('the owner, caught at the guessing address, waits seconds, not minutes: one attempt back every 30 seconds', async () => {
    await rested();
    const token = await newToken();
    expect((await from('192.0.2.70', token)).status).toBe(200); // cached for that address
    for (let i = 0; i < 10; i++) expect((await from('192.0.2.70', wrong(token, i))).status).toBe(401);
    const refused = await from('192.0.2.70', token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    await advanceClock(server.origin, retryAfter * SECOND);
    // The right secret, when the address has an attempt again, gets through and costs nothing...
    expect((await from('192.0.2.70', token)).status).toBe(200);
    expect((await from('192.0.2.70', token)).status).toBe(200);
    // ...a wrong one uses the attempt, and the next is refused again.
    expect((await from('192.0.2.70', wrong(token, 10))).status).toBe(401);
    expect((await from('192.0.2.70', wrong(token, 11))).status).toBe(429);
    expect((await from('192.0.2.70', token)).status).toBe(429);
  });

  it('an IPv6 client is one /64: its other addresses share the limit, another network does not', async () => {
    await rested();
    const token = await newToken();
    for (let i = 0; i < 10; i++) expect((await from(`2001:db8:1:2::${(i + 1).toString(16)}`, wrong(token, i))).status).toBe(401);
    expect((await from('2001:db8:1:2:ffff:ffff:ffff:ffff', token)).status).toBe(429);
    expect((await from('2001:db8:1:3::1', token)).status).toBe(200);
  });
});
