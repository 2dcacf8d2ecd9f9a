// listDiscoveries: the banks the sandbox reaches, per country and currency with their rails, in
// the list envelope: filtered, in order, and every bank on exactly one page.
import { describe, expect, it } from 'vitest';
import type { components, operations } from '../../generated/openapi.js';
import { api, describeServer, errorOf, raw } from '../support/api.ts';

type Query = NonNullable<operations['listDiscoveries']['parameters']['query']>;
type Discovery = components['schemas']['Discovery'];

async function banks(query: Query = {}) {
  const { data, response } = await api.GET('/discoveries', { params: { query } });
  if (data === undefined) throw new Error(`GET /discoveries: ${response.status}`);
  return data;
}

describe('listDiscoveries', () => {
  it('200: banks in the list envelope', async () => {
    const page = await banks({ country: 'MX' });
    expect(page.data.length).toBeGreaterThan(0);
  });
});

describeServer('listDiscoveries on the server', () => {
  it('filters by country and currency; each bank names the rails that reach it', async () => {
    const mexico = await banks({ country: 'MX' });
    expect(mexico.data.length).toBeGreaterThan(1);
    expect(mexico.data.every((b) => b.country === 'MX' && b.currency === 'MXN' && b.paymentRails.join() === 'SPEI')).toBe(true);
    expect(mexico.totalCount).toBe(mexico.data.length);
    const euro = await banks({ currency: 'EUR' });
    expect(new Set(euro.data.map((b) => b.country)).size).toBeGreaterThan(1);
    expect(euro.data.every((b) => b.paymentRails.includes('SEPA') && b.paymentRails.includes('SEPA_INSTANT'))).toBe(true);
    expect((await banks({ country: 'MX', currency: 'EUR' })).totalCount).toBe(0);
  });

  it('every bank on exactly one page, by country, currency and bank name', async () => {
    const all: Discovery[] = [];
    let cursor: string | undefined;
    do {
      const page = await banks({ limit: 4, ...(cursor === undefined ? {} : { cursor }) });
      all.push(...page.data);
      expect(page.hasMore).toBe(page.nextCursor !== undefined);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const { totalCount } = await banks();
    expect(all).toHaveLength(totalCount);
    const keys = all.map((b) => `${b.country}:${b.currency}:${b.bankName}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('400 INVALID_CURSOR for a forged cursor or one of other filters', async () => {
    const first = await banks({ limit: 1 });
    const other = await raw('GET', `/discoveries?limit=1&country=US&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect(other.status).toBe(400);
    expect((await errorOf(other)).code).toBe('INVALID_CURSOR');
    const forged = await raw('GET', '/discoveries?cursor=abc.def');
    expect((await errorOf(forged)).code).toBe('INVALID_CURSOR');
  });
});
