// The client's helpers against an injected fetch: typed errors, pagination, the Embedded Wallet
// signed retry; and webhook verification against signatures made like the server makes them.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createPaymentsClient, isPaymentsApiError, paginate, PaymentsApiError, unwrap, verifyWebhook, WebhookSignatureError, withSignedRetry } from '../../client/index.ts';

const baseUrl = 'http://127.0.0.1:9/2025-10-13';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const customerId = 'Customer:019542f5-b3e7-1d02-0000-000000000001';

function scripted(...answers: Response[]) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no more answers scripted');
    return answer;
  };
  return { api: createPaymentsClient({ baseUrl, clientId: 'id', clientSecret: 'secret', fetch, retry: false }), sent };
}

describe('typed errors', () => {
  it('keep openapi-fetch\'s { data, error, response }', async () => {
    const { api } = scripted(json(404, { status: 404, code: 'NOT_FOUND', message: 'no such customer' }));
    const { data, error, response } = await api.GET('/customers/{customerId}', { params: { path: { customerId } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.code).toBe('NOT_FOUND');
  });

  it('unwrap returns the data of a success', async () => {
    const { api } = scripted(json(200, { id: customerId, fullName: 'Jane Doe' }));
    expect((await unwrap(api.GET('/customers/{customerId}', { params: { path: { customerId } } }))).id).toBe(customerId);
  });

  it('unwrap throws a PaymentsApiError with status, code, message, details and request id', async () => {
    const body = { status: 400, code: 'INVALID_INPUT', message: 'fullName is required', details: { errors: [{ field: '/fullName', message: 'required' }] } };
    const { api } = scripted(json(400, body, { 'X-Request-Id': 'req-123' }));
    const error = await unwrap(api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: '' } })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(isPaymentsApiError(error)).toBe(true);
    if (!isPaymentsApiError(error)) return;
    expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT', requestId: 'req-123', details: body.details, body });
    expect(error.message).toBe('400 INVALID_INPUT: fullName is required');
    expect(error.response.status).toBe(400);
  });

  it('an error answer that is not an API error has no code', async () => {
    const { api } = scripted(new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const error = (await unwrap(api.GET('/customers')).catch((e: unknown) => e)) as PaymentsApiError;
    expect(error).toMatchObject({ status: 502, code: undefined, body: undefined, requestId: undefined, message: 'HTTP 502' });
  });
});

describe('paginate', () => {
  const page = (ids: string[], nextCursor?: string) => json(200, { data: ids.map((id) => ({ id })), hasMore: nextCursor !== undefined, totalCount: 5, ...(nextCursor === undefined ? {} : { nextCursor }) });

  it('follows nextCursor until hasMore is false, keeping the caller\'s query', async () => {
    const { api, sent } = scripted(page(['a', 'b'], 'c1'), page(['c', 'd'], 'c2'), page(['e']));
    const ids: string[] = [];
    for await (const customer of paginate(api, '/customers', { params: { query: { limit: 2, customerType: 'INDIVIDUAL' } } })) ids.push(customer.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    const queries = sent.map((r) => Object.fromEntries(new URL(r.url).searchParams));
    expect(queries).toEqual([
      { limit: '2', customerType: 'INDIVIDUAL' },
      { limit: '2', customerType: 'INDIVIDUAL', cursor: 'c1' },
      { limit: '2', customerType: 'INDIVIDUAL', cursor: 'c2' },
    ]);
  });

  it('fills path parameters and stops early when the caller breaks', async () => {
    const { api, sent } = scripted(page(['x', 'y'], 'next'), page(['z']));
    for await (const action of paginate(api, '/agents/{agentId}/actions', { params: { path: { agentId: 'Agent:1' } } })) {
      expect(action.id).toBe('x');
      break;
    }
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual(['/2025-10-13/agents/Agent%3A1/actions']);
  });

  it('throws a typed error on an error page', async () => {
    const { api } = scripted(page(['a'], 'bad'), json(400, { status: 400, code: 'INVALID_CURSOR', message: 'cursor' }));
    const seen: string[] = [];
    const run = async () => {
      for await (const t of paginate(api, '/tokens')) seen.push(t.id);
    };
    await expect(run()).rejects.toMatchObject({ name: 'PaymentsApiError', code: 'INVALID_CURSOR' });
    expect(seen).toEqual(['a']);
  });
});

describe('withSignedRetry', () => {
  const challenge = { type: 'EMAIL_OTP', payloadToSign: '{"requestId":"1","operation":"updateInternalAccount"}', requestId: '019542f5-b3e7-1d02-0000-00000000000a', expiresAt: '2025-10-13T12:05:00Z' };
  const accountId = 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002';

  it('signs the challenge and resends the identical request with Service-Wallet-Signature and Request-Id', async () => {
    const { api, sent } = scripted(json(202, challenge), json(200, { id: accountId, status: 'ACTIVE' }));
    const signed: string[] = [];
    const { data } = await withSignedRetry(
      (header) => api.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId }, ...(header === undefined ? {} : { header }) }, body: { privateEnabled: true } }),
      (c) => (signed.push(c.payloadToSign), 'sandbox-valid-signature'),
    );
    expect(data?.id).toBe(accountId);
    expect(signed).toEqual([challenge.payloadToSign]);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.headers.has('service-wallet-signature')).toBe(false);
    expect(sent[1]?.headers.get('service-wallet-signature')).toBe('sandbox-valid-signature');
    expect(sent[1]?.headers.get('request-id')).toBe(challenge.requestId);
    expect([sent[1]?.method, sent[1]?.url, await sent[1]?.clone().text()]).toEqual([sent[0]?.method, sent[0]?.url, await sent[0]?.clone().text()]);
  });

  it('returns an answer that needs no signature as it is, without signing', async () => {
    const { api, sent } = scripted(json(404, { status: 404, code: 'NOT_FOUND', message: 'no' }));
    const { error } = await withSignedRetry((header) => api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId: '1' }, ...(header === undefined ? {} : { header }) } }), () => {
      throw new Error('must not sign');
    });
    expect(error?.code).toBe('NOT_FOUND');
    expect(sent).toHaveLength(1);
  });

  it('returns the signed retry\'s refusal', async () => {
    const { api } = scripted(json(202, challenge), json(401, { status: 401, code: 'REQUEST_ID_REUSED', message: 'used' }));
    const { error } = await withSignedRetry((header) => api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId: '1' }, ...(header === undefined ? {} : { header }) } }), () => 'sig');
    expect(error?.code).toBe('REQUEST_ID_REUSED');
  });
});

describe('verifyWebhook', () => {
  // The server's format: whsec_ + base64 of 32 random bytes (platform.service.ts), signed with standardwebhooks.
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const event = { id: '019542f5-b3e7-1d02-0000-000000000e01', type: 'TEST', timestamp: '2025-10-13T12:00:05Z', data: { message: 'hello' } };
  const body = JSON.stringify(event);
  const signedHeaders = (at: Date, key = secret) => ({
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(event.id, at, body),
  });

  it('accepts a good signature and returns the typed event (Node headers or Fetch Headers)', () => {
    const verified = verifyWebhook(secret, body, signedHeaders(new Date()));
    expect(verified).toEqual(event);
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(signedHeaders(new Date())))).toEqual(event);
    expect(verifyWebhook(secret, new TextEncoder().encode(body), signedHeaders(new Date()))).toEqual(event);
    if (verified.type === 'TEST') expect(verified.data.message).toBe('hello');
  });

  it('rejects a signature of another secret, a changed body, an old timestamp and missing headers', () => {
    const other = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;
    expect(() => verifyWebhook(secret, body, signedHeaders(new Date(), other))).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(secret, body.replace('hello', 'hellp'), signedHeaders(new Date()))).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(secret, body, signedHeaders(new Date(Date.now() - 10 * 60_000)))).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(secret, body, {})).toThrow(WebhookSignatureError);
  });
});
