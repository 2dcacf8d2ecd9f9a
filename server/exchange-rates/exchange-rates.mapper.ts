import type { components } from '../../generated/openapi.js';
import type { Price } from './pricing.ts';
import { currency } from '../shared/currencies.ts';
import { decimalNumber, roundRatio, type ExactDecimal } from '../shared/exact-decimal.ts';
import type { Fees } from './fees.ts';
import { deliveryRail } from './sandbox-market.ts';

type ExchangeRate = components['schemas']['ExchangeRate'];

export interface PricedCorridor {
  source: string;
  destination: string;
  multiplier: ExactDecimal;
  fees: Fees;
  sendingAmount: number;
  /** What a quote of `sendingAmount` would deliver; a refusal when the fees take all of it. */
  price: Price | string;
  limits: { min: number; max: number };
  updatedAt: Date;
}

/**
 * Source-currency units per destination-currency unit before fees, in whole units: the inverse of
 * the multiplier (smallest destination units per smallest source unit), times
 * 10^(destination decimals − source decimals).
 */
function exchangeRateOf(c: PricedCorridor): number {
  const shift = (code: string) => 10n ** BigInt(currency(code).decimals);
  return decimalNumber(roundRatio(10n ** BigInt(c.multiplier.scale) * shift(c.destination), c.multiplier.digits * shift(c.source), 8));
}

export function toExchangeRate(c: PricedCorridor): ExchangeRate {
  const variable = Math.floor((c.sendingAmount * c.fees.variableFeeBps) / 10_000);
  return {
    sourceCurrency: currency(c.source),
    destinationCurrency: currency(c.destination),
    destinationPaymentRail: deliveryRail(c.destination),
    sendingAmount: c.sendingAmount,
    receivingAmount: typeof c.price === 'string' ? 0 : c.price.totalReceivingAmount,
    minSendingAmount: c.limits.min,
    maxSendingAmount: c.limits.max,
    exchangeRate: exchangeRateOf(c),
    fees: { fixed: c.fees.fixedFee, variable, total: c.fees.fixedFee + variable },
    updatedAt: c.updatedAt.toISOString(),
  };
}
