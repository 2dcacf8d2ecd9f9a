// The typed client's errors against the real server: `unwrap` throws a PaymentsApiError with the
// spec's code and the id the server gave the request, so an integrator can quote it to support.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createPaymentsClient, isPaymentsApiError, unwrap } from '../../client/index.ts';
import { credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';

describeServer('client errors', () => {
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
});
