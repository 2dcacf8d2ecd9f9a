// Time comes from the server's clock, which the test control moves forward (NODE_ENV=test only):
// work due minutes or hours later (a webhook's third attempt waits 5 minutes) is tested in seconds.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { advanceClock, jsonHeaders, newCredentials } from '../support/server-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const token = newCredentials();
const headers = jsonHeaders(token);
const settle = () => new Promise((r) => setTimeout(r, 1500));

// A server of its own: moving the shared target's clock would disturb the other files' tests.
describe.skipIf(target !== 'pglite')('the server clock', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('a refused webhook is retried 5 s and then 5 min later, in server time', async () => {
    const { webhookSigningSecret: secret } = (await (await fetch(`${server.baseUrl}/config`, { method: 'PATCH', headers, body: JSON.stringify({ webhookEndpoint: receiver.url }) })).json()) as { webhookSigningSecret: string };
    await receiver.waitFor(1); // the TEST event
    receiver.answerWith(503);
    const customer = (await (await fetch(`${server.baseUrl}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerType: 'BUSINESS', businessInfo: { legalName: 'Clockwork Ltd', country: 'US', registrationNumber: 'REG-001' } }) })).json()) as { id: string };
    await fetch(`${server.baseUrl}/verifications`, { method: 'POST', headers, body: JSON.stringify({ customerId: customer.id }) });
    const verificationEvent = () => receiver.received.filter((w) => (JSON.parse(w.body) as { type: string }).type === 'VERIFICATION_STATUS_UPDATED');
    // An attempt that is due is waited for until it has arrived (however busy the machine), then
    // the settle, so one more would show.
    const arrived = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (verificationEvent().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await settle();
    };

    await arrived(1);
    expect(verificationEvent()).toHaveLength(1);
    expect(() => new Webhook(secret).verify(verificationEvent()[0]?.body ?? '', verificationEvent()[0]?.headers ?? {})).not.toThrow();
    await advanceClock(server.origin, 5_000);
    await arrived(2);
    expect(verificationEvent()).toHaveLength(2);

    receiver.answerWith(200);
    // Real time passes too, so "not yet" is checked well before the 5 minutes are up.
    await advanceClock(server.origin, 280_000);
    await settle();
    expect(verificationEvent()).toHaveLength(2);
    await advanceClock(server.origin, 20_000);
    await arrived(3);
    const attempts = verificationEvent();
    expect(attempts.map((w) => w.answered)).toEqual([503, 503, 200]);
    // One event, retried: the same webhook-id every time, a timestamp from the server's clock
    // (5 minutes ahead: a receiver's tolerance would refuse it, which is why only tests move time).
    expect(new Set(attempts.map((w) => w.headers['webhook-id'])).size).toBe(1);
    const sentAt = Number(attempts[2]?.headers['webhook-timestamp']) * 1000;
    expect(sentAt - Date.now()).toBeGreaterThan(300_000);
  }, 60_000);

  it('only under NODE_ENV=test: a production server has no clock control', async () => {
    const production = await startInProcess({ NODE_ENV: 'production', PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') });
    try {
      expect((await fetch(`${production.origin}/__test/clock`)).status).toBe(404);
      expect((await fetch(`${production.origin}/__test/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":1000}' })).status).toBe(404);
    } finally {
      await production.stop();
    }
  }, 120_000);
});
