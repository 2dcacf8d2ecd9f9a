// A quote's price: the sandbox market's rate for the two currencies and the platform's fees
// (pricing.ts does the arithmetic), within the platform's per-payment limits of the sending currency
// and what the receiver accepts.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { feesFor } from '../exchange-rates/fees.ts';
import { defaultLimits, hasRate, multiplier, rateWindow } from '../exchange-rates/sandbox-market.ts';
import { getConfig } from '../platform/platform.service.ts';
import { currency } from '../shared/currencies.ts';
import { badRequest } from '../shared/errors.ts';
import { decimalNumber, ONE } from '../shared/exact-decimal.ts';
import { priceQuote, rateDetailsOf, type Price, type PriceTerms } from '../exchange-rates/pricing.ts';

type Schemas = components['schemas'];
type PlatformConfig = Schemas['PlatformConfig'];

/**
 * The amount limits a priced quote must respect: the platform's per-transaction range of the
 * sending currency (when it configured one) and the range the receiver accepts (what its lookup shows).
 */
function checkLimits(config: PlatformConfig, price: Price, sending: string, receiving: string, viaCounterparty: boolean): void {
  const configured = config.supportedCurrencies.find((c) => c.currencyCode === sending);
  if (configured !== undefined && (price.totalSendingAmount < configured.minAmount || price.totalSendingAmount > configured.maxAmount)) {
    throw badRequest('INVALID_AMOUNT', `The platform sends ${sending} between ${configured.minAmount} and ${configured.maxAmount} per payment; this quote sends ${price.totalSendingAmount}.`, {
      minAmount: configured.minAmount,
      maxAmount: configured.maxAmount,
    });
  }
  const receiver = defaultLimits(receiving);
  if (viaCounterparty && (price.totalReceivingAmount < receiver.min || price.totalReceivingAmount > receiver.max)) {
    throw badRequest('INVALID_AMOUNT', `The receiver accepts between ${receiver.min} and ${receiver.max} ${receiving}; this quote delivers ${price.totalReceivingAmount}.`, { min: receiver.min, max: receiver.max });
  }
}

function termsFor(ctx: PlatformContext, config: PlatformConfig, from: string, to: string, viaCounterparty: boolean): PriceTerms {
  if (!hasRate(to)) throw badRequest('CURRENCY_MISMATCH', `The sandbox cannot deliver ${to}.`);
  const m = multiplier(rateWindow(ctx.clock.now()), from, to);
  const fees = feesFor(config, from);
  return viaCounterparty ? { serviceMultiplier: ONE, counterpartyMultiplier: m, counterpartyFixedFee: 0, ...fees } : { serviceMultiplier: m, counterpartyFixedFee: 0, ...fees };
}

function priced(terms: PriceTerms, body: Schemas['QuoteCreateRequest'], sending: string, receiving: string): Price {
  const price = priceQuote(terms, body.lockedCurrencySide, body.lockedCurrencyAmount, { sending: currency(sending).decimals, receiving: currency(receiving).decimals });
  if (price === 'BELOW_FEES') throw badRequest('INVALID_AMOUNT', 'The amount does not cover the fees of this quote; quote a larger amount.', { field: '/lockedCurrencyAmount' });
  if (price === 'ABOVE_LIMIT') throw badRequest('INVALID_AMOUNT', 'The other side of this quote would exceed 9000000000000000, the largest amount a payment can carry.', { field: '/lockedCurrencyAmount' });
  return price;
}

/** The price of a quote from `sending` to `receiving` (`viaCounterparty`: the receiver converts), or 400 INVALID_AMOUNT. */
export async function priceFor(
  ctx: PlatformContext,
  body: Schemas['QuoteCreateRequest'],
  sending: string,
  receiving: string,
  viaCounterparty: boolean,
): Promise<{ price: Price; exchangeRate: number; rateDetails: Schemas['RateDetails'] }> {
  const config = await getConfig(ctx);
  const terms = termsFor(ctx, config, sending, receiving, viaCounterparty);
  const price = priced(terms, body, sending, receiving);
  checkLimits(config, price, sending, receiving, viaCounterparty);
  return { price, exchangeRate: decimalNumber(price.exchangeRate), rateDetails: rateDetailsOf(terms, price) };
}
