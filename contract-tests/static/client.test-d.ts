// Type-level tests of the typed client: wrong paths, methods, parameters and bodies do not compile.
// Run by vitest's typecheck mode and by `npm run typecheck`.
import { describe, expectTypeOf, it } from 'vitest';
import { createPaymentsClient, type components } from '../../client/index.ts';

const client = createPaymentsClient({ baseUrl: 'http://127.0.0.1:3000/2025-10-13', clientId: 'id', clientSecret: 'secret' });
const customerId = 'Customer:019542f5-b3e7-1d02-0000-000000000001';

describe('typed client', () => {
  it('accepts a valid request and types the response', async () => {
    const { data } = await client.POST('/tokens', { body: { name: 'Payouts backend', permissions: ['VIEW', 'TRANSACT'] } });
    expectTypeOf(data).toEqualTypeOf<components['schemas']['Token'] | undefined>();
  });

  it('rejects an unknown path', () => {
    // @ts-expect-error not a path of the API
    void client.GET('/payments');
  });

  it('rejects a method the path does not have', () => {
    // @ts-expect-error /config has no DELETE
    void client.DELETE('/config');
  });

  it('rejects a wrong enum value in a body', () => {
    // @ts-expect-error ADMIN is not a Permission
    void client.POST('/tokens', { body: { name: 'x', permissions: ['ADMIN'] } });
  });

  it('rejects a missing required field', () => {
    // @ts-expect-error permissions is required
    void client.POST('/tokens', { body: { name: 'x' } });
  });

  it('rejects a wrongly typed query parameter', () => {
    // @ts-expect-error limit is a number
    void client.GET('/tokens', { params: { query: { limit: '10' } } });
  });

  it('requires path parameters', () => {
    // @ts-expect-error tokenId is missing
    void client.GET('/tokens/{tokenId}', { params: { path: {} } });
  });

  it('checks account info variants by accountType', () => {
    void client.POST('/customers/external-accounts', {
      body: {
        customerId,
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
      },
    });
    void client.POST('/customers/external-accounts', {
      body: {
        customerId,
        currency: 'EUR',
        // @ts-expect-error routingNumber does not belong to an EUR_ACCOUNT
        accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
      },
    });
  });

  it('narrows unions on their discriminator', () => {
    const show = (info: components['schemas']['ExternalAccountInfo']): string => {
      switch (info.accountType) {
        case 'USD_ACCOUNT':
          return info.routingNumber;
        case 'SPARK_WALLET':
          return info.address;
        default:
          return info.accountType;
      }
    };
    expectTypeOf(show).returns.toEqualTypeOf<string>();
  });
});
