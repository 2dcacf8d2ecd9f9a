// Indicative exchange rates: for each corridor the platform can send in, what `sendingAmount`
// delivers today, with the service's and the platform's fees. Rates come from the sandbox market
// of the current 5-minute window, so every read in a window (in any server process) is identical
// and `updatedAt` is the window's start; only a quote locks a rate.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { getConfig } from '../platform/platform.service.ts';
import { currency } from '../shared/currencies.ts';
import { invalidField } from '../shared/errors.ts';
import { pageOfItems, type Page } from '../shared/page.ts';
import { priceQuote } from './pricing.ts';
import { feesFor } from './fees.ts';
import { toExchangeRate } from './exchange-rates.mapper.ts';
import { defaultLimits, hasRate, multiplier, RATED_CURRENCIES, rateWindow } from './sandbox-market.ts';

type Schemas = components['schemas'];
type ExchangeRate = Schemas['ExchangeRate'];
type Query = { sourceCurrency?: string; destinationCurrency?: string[]; sendingAmount?: number; limit?: number; cursor?: string };

const DEFAULT_SENDING_AMOUNT = 10_000;

function checkKnown(field: string, codes: readonly string[]): void {
  const unknown = codes.find((code) => !hasRate(code));
  if (unknown !== undefined) throw invalidField(field, `${unknown} is not a currency the service exchanges (${RATED_CURRENCIES.join(', ')}).`, 'enum');
}

export async function listExchangeRates(ctx: PlatformContext, query: Query): Promise<Page<ExchangeRate>> {
  const { limit, cursor, ...filters } = query;
  if (query.sourceCurrency !== undefined) checkKnown('sourceCurrency', [query.sourceCurrency]);
  if (query.destinationCurrency !== undefined) checkKnown('destinationCurrency', query.destinationCurrency);
  const config = await getConfig(ctx);
  // The platform sends in the currencies it enabled for OUTGOING payments; all of them when it set none.
  const enabled = config.supportedCurrencies.filter((c) => c.enabledTransactionTypes.includes('OUTGOING') && hasRate(c.currencyCode));
  const limits = new Map(enabled.map((c) => [c.currencyCode, { min: c.minAmount, max: c.maxAmount }]));
  const sources = query.sourceCurrency !== undefined ? [query.sourceCurrency] : enabled.length > 0 ? enabled.map((c) => c.currencyCode) : RATED_CURRENCIES;
  const window = rateWindow(ctx.clock.now());
  const sendingAmount = query.sendingAmount ?? DEFAULT_SENDING_AMOUNT;
  const rates: ExchangeRate[] = [];
  for (const source of sources) {
    const fees = feesFor(config, source);
    for (const destination of query.destinationCurrency ?? RATED_CURRENCIES) {
      if (destination === source) continue;
      const m = multiplier(window, source, destination);
      const price = priceQuote({ serviceMultiplier: m, counterpartyFixedFee: 0, ...fees }, 'SENDING', sendingAmount, { sending: currency(source).decimals, receiving: currency(destination).decimals });
      rates.push(toExchangeRate({ source, destination, multiplier: m, fees, sendingAmount, price, limits: limits.get(source) ?? defaultLimits(source), updatedAt: window.start }));
    }
  }
  return pageOfItems(ctx.keys, rates, (r) => `${r.sourceCurrency.code}:${r.destinationCurrency.code}`, { ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }, filters);
}
