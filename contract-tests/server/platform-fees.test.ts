// The platform's fees (feeConfigs of PATCH /config) on a server of this file's own, so that the
// shared target's quotes keep the service's fees only: set, read back and replaced; added to the
// service's fees on exchange rates and on quotes, where the documented rule still holds.
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { quoteCalls } from '../support/quotes.ts';
import { ownServer } from '../support/own-server.ts';

describe.skipIf(target !== 'pglite')('platform fees', () => {
  const own = ownServer();

  const usdToEur = async () => {
    const { data } = await own.via.GET('/exchange-rates', { params: { query: { sourceCurrency: 'USD', destinationCurrency: ['EUR'] } } });
    const rate = data?.data[0];
    if (rate === undefined) throw new Error('no USD to EUR rate');
    return rate;
  };

  it('none by default; set, read back, replaced as a whole', async () => {
    expect((await own.via.GET('/config')).data?.feeConfigs).toEqual([]);
    const set = await own.via.PATCH('/config', { body: { feeConfigs: [{ sourceCurrency: 'USD', fixedFee: 25, variableFeeBps: 50 }, { sourceCurrency: 'EUR', fixedFee: 0, variableFeeBps: 10 }] } });
    expect(set.data?.feeConfigs).toEqual([
      { sourceCurrency: 'USD', fixedFee: 25, variableFeeBps: 50 },
      { sourceCurrency: 'EUR', fixedFee: 0, variableFeeBps: 10 },
    ]);
    expect((await own.via.GET('/config')).data?.feeConfigs).toEqual(set.data?.feeConfigs);
    const replaced = await own.via.PATCH('/config', { body: { feeConfigs: [{ sourceCurrency: 'USD', fixedFee: 30, variableFeeBps: 100 }] } });
    expect(replaced.data?.feeConfigs).toEqual([{ sourceCurrency: 'USD', fixedFee: 30, variableFeeBps: 100 }]);
  });

  it('400 INVALID_INPUT for a currency listed twice, an unknown currency or basis points out of range; nothing changes', async () => {
    const before = (await own.via.GET('/config')).data?.feeConfigs;
    for (const feeConfigs of [
      [{ sourceCurrency: 'USD', fixedFee: 1, variableFeeBps: 1 }, { sourceCurrency: 'USD', fixedFee: 2, variableFeeBps: 2 }],
      [{ sourceCurrency: 'XYZ', fixedFee: 1, variableFeeBps: 1 }],
      [{ sourceCurrency: 'USD', fixedFee: 1, variableFeeBps: 1001 }],
      [{ sourceCurrency: 'USD', fixedFee: -1, variableFeeBps: 1 }],
    ]) {
      const res = await own.via.PATCH('/config', { body: { feeConfigs } });
      expect(res.response.status).toBe(400);
      expect(res.error).toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect((await own.via.GET('/config')).data?.feeConfigs).toEqual(before);
  });

  it('exchange rates and quotes add them to the service\'s fees, and the rule still holds', async () => {
    await own.via.PATCH('/config', { body: { feeConfigs: [] } });
    const plain = await usdToEur();
    await own.via.PATCH('/config', { body: { feeConfigs: [{ sourceCurrency: 'USD', fixedFee: 30, variableFeeBps: 100 }] } });
    const withFees = await usdToEur();
    expect(withFees.fees.fixed).toBe(plain.fees.fixed + 30);
    expect(withFees.fees.variable).toBe(plain.fees.variable + 100); // 1% of 10 000
    expect(withFees.receivingAmount).toBeLessThan(plain.receivingAmount);

    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `fees-${Date.now()}`, fullName: 'Jane Doe', currencies: ['USD', 'EUR'] } });
    const { data: accounts } = await own.via.GET('/customers/internal-accounts', { params: { query: { customerId: customer?.id ?? '' } } });
    const usd = accounts?.data.find((a) => a.balance.currency.code === 'USD')?.id ?? '';
    const eur = accounts?.data.find((a) => a.balance.currency.code === 'EUR')?.id ?? '';
    const quote = await quoteCalls(own.server.baseUrl, own.token).createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: eur },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(quote.rateDetails).toMatchObject({ serviceApiFixedFee: withFees.fees.fixed, serviceApiVariableFeeRate: 0.02, serviceApiVariableFeeAmount: 200 });
    expect(quote.feesIncluded).toBe(withFees.fees.total);
  });
});
