// A device code is a credential of 40 bits that needs no other: guessing must not pay, and must
// not stop anyone else redeeming. After 10 unknown codes from one address, that address gets one
// attempt back every 30 seconds: until then every redeem from it, even of a valid code, answers
// 429 RATE_LIMITED with Retry-After (at most 30 seconds); other addresses redeem as before. On a
// server of this file's own: the limit would otherwise slow the suite's other files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import type { PaymentsClient } from '../../client/index.ts';
import { target } from '../support/api.ts';
import { checkedClientOf } from '../support/factories.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { ownServer } from '../support/own-server.ts';
import { advanceClock, newCredentials } from '../support/server-process.ts';

const MINUTE = 60_000;

describe.skipIf(target === 'prism')('guessing device codes', () => {
  const own = ownServer({ onTargetDatabase: true });
  const redeem = (baseUrl: string, code: string, forwardedFor?: string) =>
    fetch(`${baseUrl}/agents/device-codes/${code}/redeem`, { method: 'POST', headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });
  // Every process has its own test clock: a second one is moved as far as the first was.
  let advanced = 0;
  const advanceOwn = async (ms: number) => {
    advanced += ms;
    await advanceClock(own.server.origin, ms);
  };
  // Codes are issued without 0 and 1, so one with a 0 never exists.
  const unknownCode = (i: number) => `AGENT-ZZZZ-${String(i).padStart(4, '0')}`;
  const newAgentCode = async (via: PaymentsClient = own.via) => {
    const { data: customer } = await via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] } });
    const policy: components['schemas']['AgentPolicy'] = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
    const { data } = await via.POST('/agents', { body: { name: 'Guessed', customerId: customer?.id ?? '', policy } });
    return data?.deviceCode.code ?? '';
  };

  it('10 unknown codes answer 404; then a valid code from that address waits seconds, not minutes', async () => {
    const valid = await newAgentCode();
    // Concurrent guesses: all pass the check before any is counted, and still only 10 get a 404.
    const statuses = (await Promise.all(Array.from({ length: 14 }, (_, i) => redeem(own.server.baseUrl, unknownCode(i))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);

    const refused = await redeem(own.server.baseUrl, valid);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);

    await advanceOwn(retryAfter * 1_000);
    // The code is still valid (15 minutes) and was never used: the refusal changed nothing. A
    // valid code costs no attempt; an unknown one uses the one that came back.
    expect((await redeem(own.server.baseUrl, valid)).status).toBe(200);
    expect((await redeem(own.server.baseUrl, unknownCode(99))).status).toBe(404);
    expect((await redeem(own.server.baseUrl, unknownCode(98))).status).toBe(429);
  });

  it.skipIf(target !== 'postgres')('the count holds across processes on one database', async () => {
    await advanceOwn(5 * MINUTE + 1_000); // every attempt back
    const other = await own.startAnother();
    await advanceClock(other.origin, advanced);
    for (let i = 0; i < 5; i++) expect((await redeem(own.server.baseUrl, unknownCode(200 + i))).status).toBe(404);
    for (let i = 0; i < 5; i++) expect((await redeem(other.baseUrl, unknownCode(300 + i))).status).toBe(404);
    expect((await redeem(own.server.baseUrl, unknownCode(400))).status).toBe(429);
    expect((await redeem(other.baseUrl, unknownCode(401))).status).toBe(429);
  });

  describe('an X-Forwarded-For header', () => {
    // A server that believes its loopback proxy, started before the test (a start takes seconds on a
    // busy machine, which the test's own time should not pay).
    const token = newCredentials();
    let behindProxy: TestServer;
    beforeAll(async () => {
      behindProxy = await startInProcess({ TRUST_PROXY: 'loopback', PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    });
    afterAll(async () => {
      await behindProxy?.stop();
    });

    it('changes nothing unless TRUST_PROXY says whose to believe', async () => {
      await advanceOwn(5 * MINUTE + 1_000); // every attempt back
      for (let i = 0; i < 10; i++) expect((await redeem(own.server.baseUrl, unknownCode(500 + i), `198.51.100.${i}`)).status).toBe(404);
      expect((await redeem(own.server.baseUrl, unknownCode(510), '198.51.100.99')).status).toBe(429);

      const valid = await newAgentCode(checkedClientOf(behindProxy.baseUrl, token));
      for (let i = 0; i < 10; i++) expect((await redeem(behindProxy.baseUrl, unknownCode(600 + i), '203.0.113.1')).status).toBe(404);
      expect((await redeem(behindProxy.baseUrl, unknownCode(610), '203.0.113.1')).status).toBe(429);
      expect((await redeem(behindProxy.baseUrl, valid, '203.0.113.1')).status).toBe(429);
      // Another client behind the same proxy has a limit of its own: the guesser never stops it.
      expect((await redeem(behindProxy.baseUrl, unknownCode(611), '203.0.113.2')).status).toBe(404);
      expect((await redeem(behindProxy.baseUrl, valid, '203.0.113.3')).status).toBe(200);
    });
  });
});
