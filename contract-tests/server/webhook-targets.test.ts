// Webhooks must not turn the server into a proxy to its own network. A server that does not allow
// private targets (NODE_ENV=production, or WEBHOOK_ALLOW_PRIVATE_TARGETS=0) refuses endpoints that
// name loopback, private or link-local addresses, and refuses at connection time names that
// resolve to them; the local sandbox allows them, so a receiver on localhost works there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, publicOnlyLookup } from '../../server/webhooks/webhook-target.ts';
import { target } from '../support/api.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { jsonHeaders, newCredentials } from '../support/server-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const token = newCredentials();
const headers = jsonHeaders(token);

describe('which addresses are public', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'])('%s is not', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('a name that resolves to a non-public address fails the connection', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((done) => publicOnlyLookup('localhost', {}, (err) => done(err)));
    expect(error?.code).toBe('ENONPUBLIC');
    expect(error?.message).toContain('resolves to 127.0.0.1');
  });
});

describe.skipIf(target !== 'pglite')('a server that does not allow private webhook targets', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' });
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const patch = (webhookEndpoint: string) => fetch(`${server.baseUrl}/config`, { method: 'PATCH', headers, body: JSON.stringify({ webhookEndpoint }) });

  it('400: refuses endpoints that name a loopback, private or link-local address; nothing is sent', async () => {
    for (const endpoint of [receiver.url, `http://localhost:${new URL(receiver.url).port}/hooks`, 'https://10.0.0.5/hooks', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hooks', 'https://192.168.1.20:8443/x', 'https://api.localhost/hooks']) {
      const res = await patch(endpoint);
      expect(res.status, endpoint).toBe(400);
      const body = (await res.json()) as { code: string; details: { errors: { field: string; message: string }[] } };
      expect(body.code).toBe('INVALID_INPUT');
      expect(body.details.errors[0]?.field).toBe('/webhookEndpoint');
      expect(body.details.errors[0]?.message).toContain('public address');
    }
    const config = (await (await fetch(`${server.baseUrl}/config`, { headers })).json()) as Record<string, unknown>;
    expect(config).not.toHaveProperty('webhookEndpoint');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(0);
  });

  it('200: a public endpoint is accepted', async () => {
    const res = await patch('https://hooks.example.org/payments');
    expect(res.status).toBe(200);
  });
});
