// Type-level tests of the client's helpers: the Idempotency-Key list is the spec's, pagination
// takes list paths only, error codes and webhook events are the spec's unions.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createPaymentsClient,
  idempotencyKeyOperations,
  paginate,
  unwrap,
  verifyWebhook,
  withSignedRetry,
  type ApiErrorCode,
  type components,
  type ListPath,
  type paths,
  type PaymentsApiError,
  type WebhookEvent,
  type WebhookEventOf,
} from '../../client/index.ts';

const api = createPaymentsClient({ baseUrl: 'http://127.0.0.1:3000/2025-10-13', clientId: 'id', clientSecret: 'secret' });
type Schemas = components['schemas'];

/** "METHOD /path" of every operation whose header parameters name Idempotency-Key, from the types alone. */
type KeyedOperation = {
  [P in keyof paths]: {
    [M in 'get' | 'put' | 'post' | 'delete' | 'patch']: paths[P][M] extends { parameters: { header?: infer H } }
      ? [NonNullable<H>] extends [never] // `header?: never`: no header parameters
        ? never
        : 'Idempotency-Key' extends keyof NonNullable<H>
          ? `${Uppercase<M>} ${P}`
          : never
      : never;
  }['get' | 'put' | 'post' | 'delete' | 'patch'];
}[keyof paths];

describe('client helpers, typed', () => {
  it('the generated Idempotency-Key list is exactly the operations the types document it on', () => {
    expectTypeOf<(typeof idempotencyKeyOperations)[number]>().toEqualTypeOf<KeyedOperation>();
  });

  it('paginate accepts list paths and types their items', async () => {
    for await (const customer of paginate(api, '/customers', { params: { query: { limit: 10 } } })) expectTypeOf(customer).toEqualTypeOf<Schemas['Customer']>();
    for await (const token of paginate(api, '/tokens')) expectTypeOf(token).toEqualTypeOf<Schemas['Token']>();
    expectTypeOf<'/transactions'>().toExtend<ListPath>();
    expectTypeOf<'/agents/me/actions'>().toExtend<ListPath>();
  });

  it('paginate rejects paths that are not lists', () => {
    // @ts-expect-error GET /config answers one object, not a list
    void paginate(api, '/config');
    // @ts-expect-error GET /auth/credentials answers only `data`, without hasMore or a cursor
    void paginate(api, '/auth/credentials', { params: { query: { accountId: 'InternalAccount:1' } } });
    // @ts-expect-error /agents/{agentId}/actions needs its path parameter
    void paginate(api, '/agents/{agentId}/actions');
    // @ts-expect-error limit is a number
    void paginate(api, '/customers', { params: { query: { limit: '10' } } });
  });

  it('error codes are the spec\'s unions', async () => {
    expectTypeOf<'INSUFFICIENT_FUNDS'>().toExtend<ApiErrorCode>();
    expectTypeOf<'NOT_A_CODE'>().not.toExtend<ApiErrorCode>();
    expectTypeOf<ApiErrorCode>().not.toEqualTypeOf<string>();
    const { error } = await api.POST('/quotes/{quoteId}/execute', { params: { path: { quoteId: 'Quote:1' } } });
    if (error !== undefined) expectTypeOf(error.code).toExtend<ApiErrorCode>();
    try {
      await unwrap(api.GET('/customers/{customerId}', { params: { path: { customerId: 'Customer:1' } } }));
    } catch (e) {
      const typed = e as PaymentsApiError;
      expectTypeOf(typed.code).toEqualTypeOf<ApiErrorCode | undefined>();
      expectTypeOf(typed.status).toEqualTypeOf<number>();
      expectTypeOf(typed.requestId).toEqualTypeOf<string | undefined>();
    }
  });

  it('unwrap returns the success body', async () => {
    expectTypeOf(await unwrap(api.GET('/config'))).toEqualTypeOf<Schemas['PlatformConfig']>();
  });

  it('withSignedRetry types the final answer without the challenge', async () => {
    const { data } = await withSignedRetry(
      (header) => api.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId: 'InternalAccount:1' }, ...(header === undefined ? {} : { header }) }, body: { privateEnabled: true } }),
      (challenge) => {
        expectTypeOf(challenge).toEqualTypeOf<Schemas['SignedRetryChallenge']>();
        return 'signature';
      },
    );
    expectTypeOf(data).toEqualTypeOf<Schemas['InternalAccount'] | undefined>();
  });

  it('webhook events are the spec\'s bodies, discriminated by type', () => {
    const event = verifyWebhook('whsec_x', '{}', {});
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf<Schemas['TestWebhookEvent']>().toExtend<WebhookEvent>();
    expectTypeOf<Schemas['OutgoingPaymentWebhookEvent']>().toExtend<WebhookEvent>();
    expectTypeOf<WebhookEventOf<'TEST'>>().toEqualTypeOf<Schemas['TestWebhookEvent']>();
    if (event.type === 'TEST') expectTypeOf(event.data.message).toEqualTypeOf<string>();
    // @ts-expect-error not an event type of the spec
    void (event.type === 'PAYMENT.DONE');
  });
});
