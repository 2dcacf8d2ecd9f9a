// Platform configuration and webhook delivery: getPlatformConfig, updatePlatformConfig,
// sendSandboxTestWebhook. The configuration is shared by the whole platform, so every test that
// changes it lives in this file, where tests run one after the other.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isMock, itServer, raw } from '../support/api.ts';
import { createBusinessCustomer, tokenWith } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  if (!isMock) await api.PATCH('/config', { body: { webhookEndpoint: null } });
  await receiver.close();
});

describe('getPlatformConfig', () => {
  it('200: returns the configuration, never the signing secret', async () => {
    const { data, response } = await api.GET('/config');
    expect(response.status).toBe(200);
    expect(data).not.toHaveProperty('webhookSigningSecret');
    if (!isMock) expect(data?.supportedCurrencies.map((c) => c.currencyCode)).toContain('USD');
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/config', { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { response, error } = await (await tokenWith(['TRANSACT'])).GET('/config');
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('updatePlatformConfig', () => {
  it('200: changes the given fields and keeps the others', async () => {
    const { data, response } = await api.PATCH('/config', { body: { name: 'Contract Test Pay' } });
    expect(response.status).toBe(200);
    if (isMock) return;
    expect(data?.name).toBe('Contract Test Pay');
    const { data: read } = await api.GET('/config');
    expect(read).toMatchObject({ name: 'Contract Test Pay', umaDomain: data?.umaDomain });
  });

  it('400: rejects a plain-http endpoint that is not local', async () => {
    const res = await raw('PATCH', '/config', jsonBody({ webhookEndpoint: 'http://example.com/hooks' }));
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_INPUT');
  });

  itServer('400: rotating the secret needs an endpoint', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
    const { response, error } = await api.PATCH('/config', { body: { rotateWebhookSigningSecret: true } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_SET' });
  });

  it('401: requires credentials', async () => {
    expect((await raw('PATCH', '/config', { auth: false, ...jsonBody({}) })).status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const { response } = await (await tokenWith(['VIEW', 'TRANSACT'])).PATCH('/config', { body: { name: 'nope' } });
    expect(response.status).toBe(403);
  });

  itServer('200: the first endpoint creates the signing secret, shown once, and receives a signed TEST webhook', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
    const before = receiver.received.length;
    const { data } = await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    const secret = data?.webhookSigningSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(data?.webhookEndpoint).toBe(receiver.url);

    const [hook] = (await receiver.waitFor(before + 1)).slice(before);
    expect(hook).toBeDefined();
    // Verified with the reference Standard Webhooks implementation, not with our own code.
    const event = new Webhook(secret ?? '').verify(hook?.body ?? '', hook?.headers ?? {}) as { id: string; type: string };
    expect(event.type).toBe('TEST');
    expect(event.id).toBe(hook?.headers['webhook-id']);
    expect(await validateAgainst('#/components/schemas/TestWebhookEvent', event)).toEqual([]);
    expect(() => new Webhook(secret ?? '').verify(`${hook?.body} `, hook?.headers ?? {})).toThrow();

    const { data: read } = await api.GET('/config');
    expect(read).not.toHaveProperty('webhookSigningSecret');
    const { data: renamed } = await api.PATCH('/config', { body: { name: 'Still Contract Test Pay' } });
    expect(renamed).not.toHaveProperty('webhookSigningSecret');
  });

  itServer('200: rotating returns a new secret once, and later webhooks are signed with it', async () => {
    const { data: first } = await api.PATCH('/config', { body: { webhookEndpoint: receiver.url, rotateWebhookSigningSecret: true } });
    const { data: second } = await api.PATCH('/config', { body: { rotateWebhookSigningSecret: true } });
    expect(second?.webhookSigningSecret).toMatch(/^whsec_/);
    expect(second?.webhookSigningSecret).not.toBe(first?.webhookSigningSecret);
    const { data: result } = await api.POST('/sandbox/webhooks/test');
    expect(result?.response_status).toBe(200);
    const hook = receiver.received.at(-1);
    expect(() => new Webhook(second?.webhookSigningSecret ?? '').verify(hook?.body ?? '', hook?.headers ?? {})).not.toThrow();
    expect(() => new Webhook(first?.webhookSigningSecret ?? '').verify(hook?.body ?? '', hook?.headers ?? {})).toThrow();
  });
});

describe('webhook events', () => {
  itServer('a verification sends VERIFICATION_STATUS_UPDATED and the customer KYB event, signed, valid against their schemas', async () => {
    // A receiver of its own: every webhook it gets is signed with this test's secret.
    const own = await startWebhookReceiver();
    const { data: config } = await api.PATCH('/config', { body: { webhookEndpoint: null } });
    expect(config?.webhookEndpoint).toBeUndefined();
    const { data: withSecret } = await api.PATCH('/config', { body: { webhookEndpoint: own.url } });
    const secret = withSecret?.webhookSigningSecret ?? '';
    const customer = await createBusinessCustomer({ businessInfo: { legalName: 'Webhook Test Ltd', registrationNumber: `REG${Date.now()}002` } });
    const { data: verification } = await api.POST('/verifications', { body: { customerId: customer.id } });
    expect(verification?.verificationStatus).toBe('REJECTED');

    const deadline = Date.now() + 10_000;
    const events = () =>
      own.received
        .map((hook) => ({ hook, event: new Webhook(secret).verify(hook.body, hook.headers) as { type: string; data: { id?: string; customerId?: string } } }))
        .filter(({ event }) => event.data.id === customer.id || event.data.customerId === customer.id);
    while (events().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const byType = Object.fromEntries(events().map(({ event }) => [event.type, event]));
    expect(Object.keys(byType).sort()).toEqual(['CUSTOMER_KYB_REJECTED', 'VERIFICATION_STATUS_UPDATED']);
    expect(await validateAgainst('#/components/schemas/VerificationStatusWebhookEvent', byType.VERIFICATION_STATUS_UPDATED)).toEqual([]);
    expect(await validateAgainst('#/components/schemas/CustomerStatusWebhookEvent', byType.CUSTOMER_KYB_REJECTED)).toEqual([]);
    expect(byType.CUSTOMER_KYB_REJECTED?.data).toMatchObject({ id: customer.id, kybStatus: 'REJECTED' });
    await own.close();
  });
});

describe('sendSandboxTestWebhook', () => {
  itServer('200: reports what the endpoint answered', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    receiver.answerWith(503, 'busy');
    const { data, response } = await api.POST('/sandbox/webhooks/test');
    receiver.answerWith(200, '{"received":true}');
    expect(response.status).toBe(200);
    expect(data).toEqual({ response_status: 503, url: receiver.url, response_body: 'busy' });
  });

  it('200: sends a test webhook', async () => {
    if (!isMock) await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    const { data, response } = await api.POST('/sandbox/webhooks/test');
    expect(response.status).toBe(200);
    expect(data?.response_status).toBe(200);
  });

  itServer('400: no endpoint configured', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
    const { response, error } = await api.POST('/sandbox/webhooks/test');
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_SET' });
  });

  it('401: requires credentials', async () => {
    expect((await raw('POST', '/sandbox/webhooks/test', { auth: false })).status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const { response } = await (await tokenWith(['VIEW', 'TRANSACT'])).POST('/sandbox/webhooks/test');
    expect(response.status).toBe(403);
  });
});
