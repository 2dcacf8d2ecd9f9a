// The client's request behaviour against an injected fetch: automatic Idempotency-Keys where the
// spec documents them, retries of what is safe to repeat, the per-call timeout, credentials. One
// timeout test runs the packaged client with the real fetch in a process of its own.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createAgentClient, createPaymentsClient, idempotencyKeyOperations, retryAfterMs, type RetryOptions } from '../../client/index.ts';

const run = promisify(execFile);
const baseUrl = 'http://127.0.0.1:9/2025-10-13';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const customer = { id: 'Customer:019542f5-b3e7-1d02-0000-000000000001', customerType: 'INDIVIDUAL', fullName: 'Jane Doe' };
const apiError = (status: number, code: string) => json(status, { status, code, message: code.toLowerCase() });

/** A fetch answering from a script (a Response, or an Error to throw), recording what it was sent. */
function scripted(...answers: (Response | Error)[]) {
  const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no more answers scripted');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch, sent };
}

/** Records the waits instead of waiting. */
function clock() {
  const waits: number[] = [];
  const retry: RetryOptions = { sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
  return { waits, retry };
}

const platform = (fetch: (r: Request) => Promise<Response>, retry: RetryOptions | false = clock().retry) =>
  createPaymentsClient({ baseUrl, clientId: 'id', clientSecret: 'secret', fetch, retry });

describe('Idempotency-Key', () => {
  it('is added to operations that document it and nowhere else', async () => {
    const { fetch, sent } = scripted(json(201, customer), json(200, customer), json(200, customer));
    const api = platform(fetch);
    await api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    await api.GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } });
    await api.PATCH('/customers/{customerId}', { params: { path: { customerId: customer.id } }, body: { customerType: 'INDIVIDUAL', fullName: 'Jane Roe' } });
    expect(sent.map((s) => s.method)).toEqual(['POST', 'GET', 'PATCH']);
    expect(sent[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]?.headers.has('idempotency-key')).toBe(false);
    expect(sent[2]?.headers.has('idempotency-key')).toBe(false);
  });

  it('is not added to a POST that does not document it', async () => {
    const { fetch, sent } = scripted(json(200, { accessToken: 'x' }));
    await platform(fetch).POST('/agents/device-codes/{code}/redeem', { params: { path: { code: 'ABCD-EFGH' } } });
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.headers.has('idempotency-key')).toBe(false);
  });

  it('is a new key for every call', async () => {
    const { fetch, sent } = scripted(json(201, customer), json(201, customer));
    const api = platform(fetch);
    await api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    await api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    expect(sent[0]?.headers.get('idempotency-key')).not.toBe(sent[1]?.headers.get('idempotency-key'));
  });

  it('is the caller\'s own when given', async () => {
    const { fetch, sent } = scripted(json(201, customer));
    await platform(fetch).POST('/customers', { params: { header: { 'Idempotency-Key': 'my-key-1' } }, body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    expect(sent[0]?.headers.get('idempotency-key')).toBe('my-key-1');
  });

  it('can be turned off', async () => {
    const { fetch, sent } = scripted(json(201, customer));
    await createPaymentsClient({ baseUrl, fetch, idempotencyKeys: false }).POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    expect(sent[0]?.headers.has('idempotency-key')).toBe(false);
  });

  it('the generated list names POSTs with path templates', () => {
    expect(idempotencyKeyOperations).toContain('POST /quotes/{quoteId}/execute');
    expect(idempotencyKeyOperations).not.toContain('POST /agents/device-codes/{code}/redeem');
  });
});

describe('retries', () => {
  it('retry a keyed POST after 429 as Retry-After says, with the same key and body', async () => {
    const { waits, retry } = clock();
    const { fetch, sent } = scripted(json(429, { status: 429, code: 'RATE_LIMITED', message: 'slow down' }, { 'Retry-After': '3' }), json(201, customer));
    const { data } = await platform(fetch, retry).POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    expect(data?.id).toBe(customer.id);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.headers.get('idempotency-key')).toBeTruthy();
    expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
    expect(JSON.parse(sent[1]?.body ?? '')).toEqual({ customerType: 'INDIVIDUAL', fullName: 'Jane Doe' });
    expect(sent[1]?.body).toBe(sent[0]?.body);
    expect(waits).toEqual([3000]);
  });

  it('back off with jitter after a 429 without Retry-After', async () => {
    const waits: number[] = [];
    const { fetch, sent } = scripted(apiError(429, 'RATE_LIMITED'), apiError(429, 'RATE_LIMITED'), json(200, customer));
    const { data } = await platform(fetch, { sleep: async (ms) => void waits.push(ms), random: () => 0.9, baseDelayMs: 100 }).GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } });
    expect(data?.id).toBe(customer.id);
    expect(sent).toHaveLength(3);
    // Full jitter: a random share (0.9 here) of 100 ms, then of 200 ms.
    expect(waits).toEqual([90, 180]);
  });

  it('honour a Retry-After date', () => {
    const now = Date.parse('2025-10-13T12:00:00Z');
    expect(retryAfterMs('Mon, 13 Oct 2025 12:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Mon, 13 Oct 2025 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('12', now)).toBe(12_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('retry a GET after 503 and after a network error, with growing backoff', async () => {
    const { waits, retry } = clock();
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE'), new TypeError('fetch failed'), json(200, customer));
    const { data } = await platform(fetch, retry).GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } });
    expect(data?.id).toBe(customer.id);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([125, 250]);
  });

  it('stop after maxRetries and return the last answer', async () => {
    const { waits } = clock();
    const { fetch, sent } = scripted(apiError(503, 'A'), apiError(503, 'B'), apiError(503, 'C'), json(200, customer));
    const { error, response } = await platform(fetch, { maxRetries: 2, sleep: async (ms) => void waits.push(ms) }).GET('/customers');
    expect(response.status).toBe(503);
    expect((error as { code: string } | undefined)?.code).toBe('C');
    expect(sent).toHaveLength(3);
  });

  it('rethrow a network error once retries are spent', async () => {
    const { fetch, sent } = scripted(new TypeError('fetch failed'), new TypeError('fetch failed again'));
    await expect(platform(fetch, { maxRetries: 1, sleep: async () => {} }).GET('/customers')).rejects.toThrow('fetch failed again');
    expect(sent).toHaveLength(2);
  });

  it('do not retry a POST without an Idempotency-Key, a PATCH, or a 400', async () => {
    const redeem = scripted(apiError(503, 'UNAVAILABLE'), json(200, {}));
    expect((await platform(redeem.fetch).POST('/agents/device-codes/{code}/redeem', { params: { path: { code: 'ABCD-EFGH' } } })).response.status).toBe(503);
    expect(redeem.sent).toHaveLength(1);

    const patch = scripted(apiError(503, 'UNAVAILABLE'), json(200, customer));
    expect((await platform(patch.fetch).PATCH('/customers/{customerId}', { params: { path: { customerId: customer.id } }, body: { customerType: 'INDIVIDUAL', fullName: 'x' } })).response.status).toBe(503);
    expect(patch.sent).toHaveLength(1);

    const invalid = scripted(apiError(400, 'INVALID_INPUT'), json(201, customer));
    expect((await platform(invalid.fetch).POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } })).response.status).toBe(400);
    expect(invalid.sent).toHaveLength(1);

    const keyless = scripted(new TypeError('fetch failed'), json(201, customer));
    await expect(createPaymentsClient({ baseUrl, fetch: keyless.fetch, idempotencyKeys: false, retry: { sleep: async () => {} } }).POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } })).rejects.toThrow('fetch failed');
    expect(keyless.sent).toHaveLength(1);
  });

  it('return a 429 whose Retry-After is longer than maxRetryAfterMs at once', async () => {
    const { waits } = clock();
    const { fetch, sent } = scripted(new Response(null, { status: 429, headers: { 'Retry-After': '300' } }), json(200, customer));
    const { response } = await platform(fetch, { maxRetryAfterMs: 60_000, sleep: async (ms) => void waits.push(ms) }).GET('/customers');
    expect(response.status).toBe(429);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('are off with retry: false', async () => {
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE'), json(200, customer));
    expect((await platform(fetch, false).GET('/customers')).response.status).toBe(503);
    expect(sent).toHaveLength(1);
  });
});

describe('timeout', () => {
  /**
   * A fetch that answers only when its request is aborted (with the abort's reason). It holds the
   * requests it was given, as a real fetch's socket does: otherwise a call waiting on it is garbage
   * as a whole, and a collection during the call leaves it without an outcome.
   */
  const pending: Request[] = [];
  const hanging = async (request: Request) =>
    new Promise<Response>((_, reject) => {
      pending.push(request);
      if (request.signal.aborted) reject(request.signal.reason as Error);
      request.signal.addEventListener('abort', () => reject(request.signal.reason as Error), { once: true });
    });

  it('aborts a call that takes longer, without retrying it', async () => {
    let calls = 0;
    const api = createPaymentsClient({ baseUrl, timeoutMs: 50, fetch: (r) => (calls++, hanging(r)) });
    const started = Date.now();
    await expect(api.GET('/customers')).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls).toBe(1);
  });

  it('holds when garbage is collected during the call (the packaged client, real fetch, a server that never answers)', async () => {
    // A collection once cut the link between the call's signal and a retried attempt's copy
    // (undici holds it weakly): every call that may be retried then waited for ever.
    const { stdout } = await run(process.execPath, ['--expose-gc', join(import.meta.dirname, 'fixtures', 'client', 'timeout-under-gc.ts')], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ 'a GET': 'TimeoutError', 'a keyed POST': 'TimeoutError', 'an unkeyed PATCH': 'TimeoutError' });
  });

  it('bounds the waits between retries too', async () => {
    const { fetch, sent } = scripted(new Response(null, { status: 503, headers: { 'Retry-After': '30' } }), json(200, customer));
    await expect(createPaymentsClient({ baseUrl, timeoutMs: 50, fetch }).GET('/customers')).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(sent).toHaveLength(1);
  });

  it('keeps the caller\'s own signal', async () => {
    const controller = new AbortController();
    const call = createPaymentsClient({ baseUrl, timeoutMs: 60_000, fetch: hanging }).GET('/customers', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(call).rejects.toThrow('user left');
  });
});

describe('credentials', () => {
  it('platform clients send HTTP Basic, agent clients HTTP Bearer', async () => {
    const { fetch, sent } = scripted(json(200, customer), json(200, {}));
    await platform(fetch).GET('/customers/{customerId}', { params: { path: { customerId: customer.id } } });
    await createAgentClient({ baseUrl, accessToken: 'agent-token', fetch }).GET('/agents/me');
    expect(sent.map((s) => s.headers.get('authorization'))).toEqual([`Basic ${btoa('id:secret')}`, 'Bearer agent-token']);
  });

  it('a caller\'s own Authorization header on one call wins', async () => {
    const { fetch, sent } = scripted(json(200, customer));
    await platform(fetch).GET('/customers/{customerId}', { params: { path: { customerId: customer.id } }, headers: { Authorization: 'Basic other' } });
    expect(sent[0]?.headers.get('authorization')).toBe('Basic other');
  });
});
