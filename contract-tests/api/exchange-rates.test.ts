// listExchangeRates: every corridor the platform sends in, with its fees, stable inside a 5-minute
// window (updatedAt is the window's start), filtered, paginated, and in line with quotes.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, describeServer, errorOf, raw } from '../support/api.ts';
import { createIndividualCustomer, customerInternalAccount } from '../support/factories.ts';
import { createQuote } from '../support/quotes.ts';

type Query = NonNullable<import('../../generated/openapi.js').operations['listExchangeRates']['parameters']['query']>;
type ExchangeRate = components['schemas']['ExchangeRate'];

async function rates(query: Query = {}) {
  const { data, response } = await api.GET('/exchange-rates', { params: { query } });
  if (data === undefined) throw new Error(`GET /exchange-rates: ${response.status}`);
  return data;
}

/** Every rate of the list, page by page. */
async function walk(query: Query, limit: number): Promise<ExchangeRate[]> {
  const all: ExchangeRate[] = [];
  let cursor: string | undefined;
  do {
    const page = await rates({ ...query, limit, ...(cursor === undefined ? {} : { cursor }) });
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

describe('listExchangeRates', () => {
  it('200: rates with their fees, in the list envelope', async () => {
    const page = await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.hasMore).toBe(false);
  });
});

describeServer('listExchangeRates on the server', () => {
  it('one rate per corridor, each with fees that add up and an amount delivered after them', async () => {
    const page = await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] });
    expect(page.totalCount).toBe(2);
    expect(page.data.map((r) => [r.destinationCurrency.code, r.destinationPaymentRail])).toEqual([
      ['EUR', 'SEPA_INSTANT'],
      ['MXN', 'SPEI'],
    ]);
    for (const rate of page.data) {
      expect(rate.sendingAmount).toBe(10_000);
      expect(rate.fees.total).toBe(rate.fees.fixed + rate.fees.variable);
      expect(rate.fees.variable).toBe(100);
      // floor((sending - fees) / rate), within the rounding of the shown rate (both currencies have 2 decimals).
      const expected = (rate.sendingAmount - rate.fees.total) / rate.exchangeRate;
      expect(Math.abs(rate.receivingAmount - expected)).toBeLessThanOrEqual(Math.max(1, expected * 1e-7));
      expect(rate.minSendingAmount).toBeLessThanOrEqual(rate.maxSendingAmount);
    }
  });

  it('is the same for every read of a 5-minute window; updatedAt is the window\'s start', async () => {
    const first = await rates({ sourceCurrency: 'EUR' });
    const second = await rates({ sourceCurrency: 'EUR' });
    const at = first.data[0]?.updatedAt ?? '';
    expect(Date.parse(at) % (5 * 60_000)).toBe(0);
    expect(Date.now() - Date.parse(at)).toBeLessThan(5 * 60_000 + 5_000);
    // Two reads across a window's edge may differ; inside one they are identical.
    if (second.data[0]?.updatedAt === at) expect(second).toEqual(first);
  });

  it('sendingAmount changes what arrives; fees weigh more on small amounts', async () => {
    const [small] = (await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR'], sendingAmount: 1_000 })).data;
    const [large] = (await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR'], sendingAmount: 1_000_000 })).data;
    if (small === undefined || large === undefined) throw new Error('no USD to EUR rate');
    expect(large.receivingAmount / large.sendingAmount).toBeGreaterThan(small.receivingAmount / small.sendingAmount);
  });

  it('pages cover every corridor once', async () => {
    const all = await walk({}, 7);
    const { totalCount } = await rates({});
    expect(all).toHaveLength(totalCount);
    expect(new Set(all.map((r) => `${r.sourceCurrency.code}>${r.destinationCurrency.code}`)).size).toBe(totalCount);
  });

  it('400 for an unknown currency or a forged cursor', async () => {
    const unknown = await raw('GET', '/exchange-rates?destinationCurrency=XYZ');
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).code).toBe('INVALID_INPUT');
    const forged = await raw('GET', '/exchange-rates?cursor=eyJrIjoiVVNEOkVVUiJ9.AAAA');
    expect(forged.status).toBe(400);
    expect((await errorOf(forged)).code).toBe('INVALID_CURSOR');
  });

  it('states each rate in whole units, whatever the decimals: about 95,238 USD per BTC and 0.0066 USD per JPY', async () => {
    const page = await rates({ sourceCurrency: 'USD', destinationCurrency: ['BTC', 'JPY', 'EUR'], sendingAmount: 1_000_000 });
    const byCode = Object.fromEntries(page.data.map((r) => [r.destinationCurrency.code, r]));
    // The sandbox's table: 0.0000105 BTC, 151.3 JPY and 0.92 EUR per USD, each within its 0.25% drift.
    for (const [code, perUsd] of [['BTC', 0.0000105], ['JPY', 151.3], ['EUR', 0.92]] as const) {
      const rate = byCode[code];
      if (rate === undefined) throw new Error(`no USD to ${code} rate`);
      expect(rate.exchangeRate * perUsd, code).toBeGreaterThan(0.997);
      expect(rate.exchangeRate * perUsd, code).toBeLessThan(1.003);
      // What arrives agrees with the rate once each side is in whole units.
      const expected = ((rate.sendingAmount - rate.fees.total) / 10 ** rate.sourceCurrency.decimals / rate.exchangeRate) * 10 ** rate.destinationCurrency.decimals;
      // receivingAmount is floored (up to 1 smallest unit below), and the shown rate is rounded to
      // 8 significant digits (a relative error below 1e-7 either way).
      expect(expected - rate.receivingAmount, code).toBeGreaterThanOrEqual(-expected * 1e-7);
      expect(expected - rate.receivingAmount, code).toBeLessThan(1 + expected * 1e-7);
    }
  });

  it('a quote across decimals (USD to BTC) states its rate in whole units: sending per receiving', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'BTC'] });
    const usd = await customerInternalAccount(customer.id, 'USD');
    const btc = await customerInternalAccount(customer.id, 'BTC');
    const quote = await createQuote({ source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: btc.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000 });
    const wholeRate = (quote.totalSendingAmount - quote.feesIncluded) / 100 / (quote.totalReceivingAmount / 1e8);
    expect(Math.abs(quote.exchangeRate - wholeRate) / wholeRate).toBeLessThan(1e-7);
    expect(quote.exchangeRate).toBeGreaterThan(90_000);
    const [listed] = (await rates({ sourceCurrency: 'USD', destinationCurrency: ['BTC'] })).data;
    if (listed !== undefined && listed.updatedAt === new Date(Math.floor(Date.parse(quote.createdAt) / 300_000) * 300_000).toISOString()) {
      expect(Math.abs(quote.exchangeRate - listed.exchangeRate) / listed.exchangeRate).toBeLessThan(1e-4);
    }
  });

  it('a receiver lookup estimates units of the receiving currency per US dollar, in whole units', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const lookup = await api.GET('/receiver/uma/{receiverUmaAddress}', { params: { path: { receiverUmaAddress: '$success.mxn@sandbox.uma.money' }, query: { customerId: customer.id } } });
    expect(lookup.data?.supportedCurrencies.map((c) => [c.currency.code, c.estimatedExchangeRate])).toEqual([['MXN', 18.52]]);
    const wallet = await api.POST('/customers/external-accounts', {
      body: { customerId: customer.id, currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: `sp1pgss${Date.now()}000` } },
    });
    const walletLookup = await api.GET('/receiver/external-account/{externalAccountId}', { params: { path: { externalAccountId: wallet.data?.id ?? '' }, query: { customerId: customer.id } } });
    expect(walletLookup.data?.supportedCurrencies.map((c) => [c.currency.code, c.estimatedExchangeRate])).toEqual([['BTC', 0.0000105]]);
  });

  it('a quote made in the same window converts at the listed rate', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR'] });
    const usd = await customerInternalAccount(customer.id, 'USD');
    const eur = await customerInternalAccount(customer.id, 'EUR');
    const [rate] = (await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR'] })).data;
    const quote = await createQuote({ source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: eur.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
    const [again] = (await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR'] })).data;
    if (rate === undefined || again === undefined) throw new Error('no USD to EUR rate');
    if (again.updatedAt !== rate.updatedAt) return; // the window turned between the two reads
    expect(quote.totalReceivingAmount).toBe(rate.receivingAmount);
    expect(quote.feesIncluded).toBe(rate.fees.total);
  });
});
