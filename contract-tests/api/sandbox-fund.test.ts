// Sandbox funding: fundSandboxInternalAccount. The replay and the 422 of its Idempotency-Key, 403 and
// 404 are the conformance kit's idempotency.*, auth.* and errors.* checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import { api, idempotencyKey, isMock, itServer, raw } from '../support/api.ts';
import { balanceOf, examples, fund, newCustomerAccount, platformInternalAccount, tokenWith } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';


describe('fundSandboxInternalAccount', () => {
  it('200: adds the amount and returns the account with its new balance', async () => {
    const account = isMock ? undefined : await newCustomerAccount('USD');
    const { data, response } = await fund(account?.id ?? examples.internalAccountId, 100000);
    expect(response.status).toBe(200);
    expect(data?.balance.currency.code).toBe('USD');
    if (account === undefined) return;
    expect(data).toMatchObject({ id: account.id, customerId: account.customerId, balance: { amount: 100000, currency: account.balance.currency } });
    expect(Date.parse(data?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(account.updatedAt));
    expect(data?.createdAt).toBe(account.createdAt);
    const again = await fund(account.id, 2550);
    expect(again.data?.balance.amount).toBe(102550);
    // Read back through both reads.
    expect(await balanceOf(account.id)).toBe(102550);
    const { data: list } = await api.GET('/customers/internal-accounts', { params: { query: { customerId: account.customerId ?? '' } } });
    expect(list?.data[0]?.balance.amount).toBe(102550);
  });

  itServer('200: funds in the account\'s own currency, crypto included, and the platform\'s accounts', async () => {
    const btc = await newCustomerAccount('BTC');
    const { data } = await fund(btc.id, 150000);
    expect(data?.balance).toEqual({ amount: 150000, currency: { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 } });

    const eur = await platformInternalAccount('EUR');
    const before = await balanceOf(eur.id);
    const funded = await fund(eur.id, 1);
    expect(funded.data).not.toHaveProperty('customerId');
    expect(funded.data?.balance.amount).toBe(before + 1);
  });

  itServer('200: concurrent fundings all count', async () => {
    const account = await newCustomerAccount('GBP');
    await Promise.all(Array.from({ length: 8 }, () => fund(account.id, 125)));
    expect(await balanceOf(account.id)).toBe(1000);
  });

  itServer('200: Idempotency-Keys are scoped to the credential', async () => {
    const account = await newCustomerAccount('USD');
    const key = idempotencyKey();
    const second = await tokenWith(['TRANSACT']);
    await fund(account.id, 300, key);
    const other = await fund(account.id, 300, key, { via: second });
    expect(other.response.status).toBe(200);
    expect(other.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(account.id)).toBe(600);
  });

  itServer('400: rejects a missing, zero, negative, fractional or too large amount, and extra fields', async () => {
    const account = await newCustomerAccount('USD');
    for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: 100000000001 }, { amount: 100, currency: 'EUR' }]) {
      const res = await raw('POST', `/sandbox/internal-accounts/${account.id}/fund`, jsonBody(body));
      expect(res.status).toBe(400);
      expect(await codeOf(res)).toBe('INVALID_INPUT');
    }
    expect(await balanceOf(account.id)).toBe(0);
  });

  it('400: rejects a malformed account id', async () => {
    const res = await raw('POST', '/sandbox/internal-accounts/acct-1/fund', jsonBody({ amount: 100 }));
    expect(isMock ? [400, 422] : [400]).toContain(res.status);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', `/sandbox/internal-accounts/${examples.internalAccountId}/fund`, { auth: false, ...jsonBody({ amount: 100 }) });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });
});
