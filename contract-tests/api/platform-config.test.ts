// Platform configuration and webhook delivery: getPlatformConfig, updatePlatformConfig,
// sendSandboxTestWebhook. The configuration is shared by the whole platform, so every test that
// changes it lives in this file, where tests run one after the other. The first endpoint's secret,
// the signed events, rotation, 403s and what the test webhook reports are the conformance kit's
// config.*, webhooks.* and auth.* checks (conformance-kit.test.ts, on a server of their own).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, errorOf, isMock, itServer, raw } from '../support/api.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';
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
});

describe('sendSandboxTestWebhook', () => {

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
