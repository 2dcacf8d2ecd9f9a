// A device code is a credential of 40 bits that needs no other: guessing must not pay. After 10
// unknown codes from one address within 5 minutes, every redeem from that address, even of a valid
// code, answers 429 RATE_LIMITED with Retry-After until the window closes. On a server of this
// file's own: the limit would otherwise lock the suite's other files out of redeeming.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { target } from '../support/api.ts';
import { startInProcess } from '../support/in-process-server.ts';
import { ownServer } from '../support/own-server.ts';
import { advanceClock, newCredentials } from '../support/server-process.ts';

const MINUTE = 60_000;

describe.skipIf(target === 'prism' || target === 'proxy')('guessing device codes', () => {
  const own = ownServer({ onTargetDatabase: true });
  const redeem = (baseUrl: string, code: string, forwardedFor?: string) =>
    fetch(`${baseUrl}/agents/device-codes/${code}/redeem`, { method: 'POST', headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });
  // Codes are issued without 0 and 1, so one with a 0 never exists.
  const unknownCode = (i: number) => `AGENT-ZZZZ-${String(i).padStart(4, '0')}`;
  const newAgentCode = async () => {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] } });
    const policy: components['schemas']['AgentPolicy'] = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
    const { data } = await own.via.POST('/agents', { body: { name: 'Guessed', customerId: customer?.id ?? '', policy } });
    return data?.deviceCode.code ?? '';
  };

  it('10 unknown codes answer 404; then even a valid code is refused until the window closes', async () => {
    const valid = await newAgentCode();
    // Concurrent guesses: all pass the check before any is counted, and still only 10 get a 404.
    const statuses = (await Promise.all(Array.from({ length: 14 }, (_, i) => redeem(own.server.baseUrl, unknownCode(i))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);

    const refused = await redeem(own.server.baseUrl, valid);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(4 * 60);
    expect(retryAfter).toBeLessThanOrEqual(5 * 60);

    await advanceClock(own.server.origin, 5 * MINUTE + 1_000);
    // The code is still valid (15 minutes) and was never used: the refusals changed nothing.
    expect((await redeem(own.server.baseUrl, valid)).status).toBe(200);
    expect((await redeem(own.server.baseUrl, unknownCode(99))).status).toBe(404);
  });

  it.skipIf(target !== 'postgres')('the count holds across processes on one database', async () => {
    await advanceClock(own.server.origin, 5 * MINUTE + 1_000); // a fresh window
    const other = await own.startAnother();
    for (let i = 0; i < 5; i++) expect((await redeem(own.server.baseUrl, unknownCode(200 + i))).status).toBe(404);
    for (let i = 0; i < 5; i++) expect((await redeem(other.baseUrl, unknownCode(300 + i))).status).toBe(404);
    expect((await redeem(own.server.baseUrl, unknownCode(400))).status).toBe(429);
    expect((await redeem(other.baseUrl, unknownCode(401))).status).toBe(429);
  });

  it('an X-Forwarded-For header changes nothing unless TRUST_PROXY says whose to believe', async () => {
    await advanceClock(own.server.origin, 5 * MINUTE + 1_000); // a fresh window
    for (let i = 0; i < 10; i++) expect((await redeem(own.server.baseUrl, unknownCode(500 + i), `198.51.100.${i}`)).status).toBe(404);
    expect((await redeem(own.server.baseUrl, unknownCode(510), '198.51.100.99')).status).toBe(429);

    const token = newCredentials();
    const behindProxy = await startInProcess({ TRUST_PROXY: 'loopback', PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    try {
      for (let i = 0; i < 10; i++) expect((await redeem(behindProxy.baseUrl, unknownCode(600 + i), '203.0.113.1')).status).toBe(404);
      expect((await redeem(behindProxy.baseUrl, unknownCode(610), '203.0.113.1')).status).toBe(429);
      // Another client behind the same proxy has a limit of its own.
      expect((await redeem(behindProxy.baseUrl, unknownCode(611), '203.0.113.2')).status).toBe(404);
    } finally {
      await behindProxy.stop();
    }
  });
});
