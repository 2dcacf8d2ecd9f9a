// The typed client's helpers against the real server (their unit tests use a scripted fetch):
// `unwrap` throws a PaymentsApiError with the spec's code and the id the server gave the request,
// and `withSignedRetry` carries an Embedded Wallet action through its 202 challenge.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createPaymentsClient, isPaymentsApiError, unwrap, withSignedRetry } from '../../client/index.ts';
import { credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';
import { SIGNATURE, wallets } from '../support/wallets.ts';

describeServer('client helpers', () => {
  const api = createPaymentsClient({ baseUrl: serverBaseUrl, ...credentials, retry: false });

  itServer('a 404 is thrown with its code, message and X-Request-Id', async () => {
    const error = await unwrap(api.GET('/customers/{customerId}', { params: { path: { customerId: `Customer:${randomUUID()}` } } })).catch((e: unknown) => e);
    expect(isPaymentsApiError(error)).toBe(true);
    if (!isPaymentsApiError(error)) return;
    expect(error).toMatchObject({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.requestId).toBe(error.response.headers.get('x-request-id'));
  });

  itServer('a 401 carries the reason in its body', async () => {
    const wrong = createPaymentsClient({ baseUrl: serverBaseUrl, clientId: credentials.clientId, clientSecret: 'not-the-secret', retry: false });
    const error = await unwrap(wrong.GET('/config')).catch((e: unknown) => e);
    expect(isPaymentsApiError(error) && error.status === 401 && error.code === 'UNAUTHORIZED').toBe(true);
    expect(isPaymentsApiError(error) ? (error.body as { reason?: string } | undefined)?.reason : undefined).toBe('Invalid credentials');
  });

  itServer('withSignedRetry signs the challenge and returns the action\'s own answer', async () => {
    const { walletId, session } = await wallets.walletWithSession();
    const signed: string[] = [];
    const result = await withSignedRetry(
      (header) => api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId: session.id }, ...(header === undefined ? {} : { header }) } }),
      (challenge) => {
        signed.push(challenge.payloadToSign);
        return SIGNATURE;
      },
    );
    expect(result.response.status).toBe(204);
    expect(signed).toHaveLength(1);
    expect((await wallets.listSessions(walletId)).data.map((s) => s.id)).not.toContain(session.id);
  });

  itServer('withSignedRetry returns a refused signature as the 401 it is', async () => {
    const { session } = await wallets.walletWithSession();
    const result = await withSignedRetry(
      (header) => api.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId: session.id }, ...(header === undefined ? {} : { header }) } }),
      () => 'not-a-signature',
    );
    expect(result.response.status).toBe(401);
    expect(result.error).toMatchObject({ code: 'UNAUTHORIZED', reason: 'Invalid Service-Wallet-Signature' });
  });
});
