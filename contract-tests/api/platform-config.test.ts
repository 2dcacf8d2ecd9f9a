// Platform configuration and webhook delivery: getPlatformConfig, updatePlatformConfig,
// sendSandboxTestWebhook. The configuration is shared by the whole platform, so every test that
// changes it lives in this file, where tests run one after the other. The first endpoint's secret,
// the signed events, rotation, 403s and what the test webhook reports are the conformance kit's
// config.*, webhooks.* and auth.* checks (conformance-kit.test.ts, on a server of their own).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, errorOf, isMock, itServer, raw } from '../support/api.ts';
import { createBusinessCustomer, tokenWith } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let receiver: WebhookReceiver;
// While this file's receiver is the shared platform's endpoint, the events of the other files'
// tests (running at the same time) reach it too: this file's own deliveries are its TEST events.
const testHooks = () => receiver.received.filter((hook) => (JSON.parse(hook.body) as { type?: unknown }).type === 'TEST');
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
    const before = testHooks().length;
    const { data } = await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    const secret = data?.webhookSigningSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(data?.webhookEndpoint).toBe(receiver.url);

    const deadline = Date.now() + 10_000;
    while (testHooks().length <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [hook] = testHooks().slice(before);
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
    const hook = testHooks().at(-1);
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
    const customer = await createBusinessCustomer({ businessInfo: { legalName: 'Webhook Test Ltd', registrationNumber: `REG${Date.now()}002`, taxId: '98-7654321' } });
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
    expect(byType.CUSTOMER_KYB_REJECTED?.data).toMatchObject({ id: customer.id, kybStatus: 'REJECTED', businessInfo: { legalName: 'Webhook Test Ltd' } });
    // Webhook bodies are stored as sent: they never carry the tax id, which the API answers.
    expect((byType.CUSTOMER_KYB_REJECTED?.data as { businessInfo?: object }).businessInfo).not.toHaveProperty('taxId');
    expect((await api.GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } })).data).toMatchObject({ businessInfo: { taxId: '98-7654321' } });
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
    await own.close();
  });
});

describe('sendSandboxTestWebhook', () => {

  it('200: sends a test webhook', async () => {
    if (!isMock) await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    const { data, response } = await api.POST('/sandbox/webhooks/test');
    expect(response.status).toBe(200);
    expect(data?.response_status).toBe(200);
  });

  itServer('200: an endpoint on a name reserved for documentation is never sent to: status 0, the reason in the body', async () => {
    for (const webhookEndpoint of ['https://platform.example.com/webhooks/payments', 'https://hooks.shop.invalid/payments', 'https://EXAMPLE.org./hooks']) {
      expect((await api.PATCH('/config', { body: { webhookEndpoint } })).response.status).toBe(200);
      const { data } = await api.POST('/sandbox/webhooks/test');
      expect(data, webhookEndpoint).toMatchObject({ response_status: 0, url: webhookEndpoint });
      expect(data?.response_body, webhookEndpoint).toMatch(/^not sent: .* is reserved for documentation \(RFC 2606\)/);
    }
    // Only the reserved names themselves: a name that merely contains one is resolved as usual.
    await api.PATCH('/config', { body: { webhookEndpoint: 'https://example.com.invalid-not/hooks' } });
    expect((await api.POST('/sandbox/webhooks/test')).data?.response_body).not.toContain('reserved');
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
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
});

describe('simulateWebhookEvent', () => {
  // Here rather than with the other simulations: only this file changes the shared endpoint.
  itServer('400: no webhook endpoint is set', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: null } });
    const unset = await raw('POST', '/sandbox/webhooks/trigger', jsonBody({ type: 'TEST' }));
    expect(unset.status).toBe(400);
    expect(await codeOf(unset)).toBe('WEBHOOK_ENDPOINT_NOT_SET');
  });
});

describe('configuration that must stay valid', () => {
  const patch = (body: unknown, headers: Record<string, string> = {}) => raw('PATCH', '/config', { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const usd = { currencyCode: 'USD', minAmount: 100, maxAmount: 1_000_000, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] };

  itServer('400: limits that are not finite, too large, listed twice or upside down; the stored list stays as it was', async () => {
    const before = (await api.GET('/config')).data?.supportedCurrencies;
    const cases: [unknown[], string][] = [
      [[{ ...usd, minAmount: 'Infinity' }], '/supportedCurrencies/0/minAmount'],
      [[{ ...usd, minAmount: 1e308 }], '/supportedCurrencies/0/minAmount'],
      [[{ ...usd, maxAmount: 9_000_000_000_000_001 }], '/supportedCurrencies/0/maxAmount'],
      [[usd, { ...usd, minAmount: 1 }], '/supportedCurrencies/1/currencyCode'],
      [[{ ...usd, minAmount: 5000, maxAmount: 10 }], '/supportedCurrencies/0/maxAmount'],
    ];
    for (const [supportedCurrencies, field] of cases) {
      const res = await patch({ supportedCurrencies });
      expect(res.status, field).toBe(400);
      expect((await errorOf(res)).details?.errors?.map((e) => e.field)).toContain(field);
    }
    const after = await api.GET('/config');
    expect(after.response.status).toBe(200);
    expect(after.data?.supportedCurrencies).toEqual(before);
  });

  itServer('500 leaves no committed write: the name, the endpoint and its TEST webhook are all as before', async () => {
    await api.PATCH('/config', { body: { name: 'Before the fault', webhookEndpoint: null } });
    const hooks = testHooks().length;
    const failed = await patch({ name: 'Half written', webhookEndpoint: receiver.url }, { 'x-test-fail-after-handler': 'true' });
    expect(failed.status).toBe(500);
    expect((await errorOf(failed)).code).toBe('INTERNAL_ERROR');
    const { data } = await api.GET('/config');
    expect(data?.name).toBe('Before the fault');
    expect(data).not.toHaveProperty('webhookEndpoint');
    await new Promise((r) => setTimeout(r, 1000));
    expect(testHooks().length).toBe(hooks);
  });

  itServer('concurrent rotations apply one after the other: the latest answer holds the secret that signs', async () => {
    await api.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.PATCH('/config', { body: { rotateWebhookSigningSecret: true } })));
    expect(answers.map((a) => a.response.status)).toEqual(Array(10).fill(200));
    const secrets = answers.map((a) => a.data?.webhookSigningSecret ?? '');
    expect(new Set(secrets).size).toBe(10);
    const { data: result } = await api.POST('/sandbox/webhooks/test');
    expect(result?.response_status).toBe(200);
    const hook = testHooks().at(-1);
    const signing = secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(hook?.body ?? '', hook?.headers ?? {});
        return true;
      } catch {
        return false;
      }
    });
    expect(signing).toHaveLength(1);
    // Each update ran under the platform's lock, so the one that committed last also came last in time.
    const latest = Math.max(...answers.map((a) => Date.parse(a.data?.updatedAt ?? '')));
    const signer = answers.find((a) => a.data?.webhookSigningSecret === signing[0]);
    expect(Date.parse(signer?.data?.updatedAt ?? '')).toBe(latest);
  });
});
