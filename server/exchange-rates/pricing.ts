// The price of a quote, in whole smallest units and exact decimals only. The rule (documented on
// `RateDetails`):
//
//   variableFee = floor(totalSending × variableFeeBps / 10000)
//   fees        = fixedFee + variableFee
//   net         = totalSending − fees                     (what is converted)
//   receiving   = floor(net × serviceMultiplier × counterpartyMultiplier) − counterpartyFixedFee
//
// SENDING locked: totalSending is the locked amount and totalReceiving = receiving(net).
// RECEIVING locked: totalReceiving is the locked amount and totalSending is the least amount whose
// `receiving` reaches it (the sender never pays a smallest unit more than needed; what the last
// unit buys beyond the locked amount is not delivered).
// exchangeRate = (net / 10^sendingDecimals) / (totalReceiving / 10^receivingDecimals): sending-
// currency units per receiving-currency unit, in whole units (the product specification's
// direction), rounded half up to 8 significant digits.
import type { components } from '../../generated/openapi.js';
import { decimalNumber, floorTimes, leastTimesReaching, multiply, roundRatio, type ExactDecimal } from '../shared/exact-decimal.ts';
import { MAX_AMOUNT } from '../shared/money.ts';

type RateDetails = components['schemas']['RateDetails'];
type LockSide = components['schemas']['QuoteLockSide'];

export interface PriceTerms {
  /** Smallest receiving units per smallest sending unit the service converts at. */
  readonly serviceMultiplier: ExactDecimal;
  /** The receiving counterparty's own conversion (an UMA provider's); absent when none converts. */
  readonly counterpartyMultiplier?: ExactDecimal;
  /** The counterparty's fee, in smallest units of the receiving currency. */
  readonly counterpartyFixedFee: number;
  /** Service and platform fixed fees, in smallest units of the sending currency. */
  readonly fixedFee: number;
  /** Service and platform variable fees, in basis points of the amount sent (below 10000). */
  readonly variableFeeBps: number;
}

/** The `decimals` of the two currencies: a rate is in whole units, amounts in smallest units. */
export interface PriceDecimals {
  readonly sending: number;
  readonly receiving: number;
}

export interface Price {
  readonly totalSendingAmount: number;
  readonly totalReceivingAmount: number;
  readonly feesIncluded: number;
  readonly variableFeeAmount: number;
  readonly exchangeRate: ExactDecimal;
}

/** Why an amount cannot be priced: too small to cover the fees, or a side above the contract's cap. */
export type PriceRefusal = 'BELOW_FEES' | 'ABOVE_LIMIT';

const EXCHANGE_RATE_DIGITS = 8;
const MAX = BigInt(MAX_AMOUNT);
const BPS = 10_000n;

const combined = (terms: PriceTerms): ExactDecimal => (terms.counterpartyMultiplier === undefined ? terms.serviceMultiplier : multiply(terms.serviceMultiplier, terms.counterpartyMultiplier));
const variableFee = (sending: bigint, bps: bigint): bigint => (sending * bps) / BPS;

/** The least total whose amount after fees is at least `net` (fees grow by at most 1 per unit sent). */
function leastSendingFor(net: bigint, fixed: bigint, bps: bigint): bigint {
  const afterFees = (s: bigint) => s - fixed - variableFee(s, bps);
  let sending = ((net + fixed) * BPS + (BPS - bps) - 1n) / (BPS - bps);
  while (afterFees(sending) < net) sending += 1n;
  while (sending > 0n && afterFees(sending - 1n) >= net) sending -= 1n;
  return sending;
}

export function priceQuote(terms: PriceTerms, side: LockSide, amount: number, decimals: PriceDecimals): Price | PriceRefusal {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`a locked amount must be a positive whole number, not ${amount}`);
  if (!(terms.variableFeeBps >= 0 && terms.variableFeeBps < 10_000)) throw new RangeError('variable fees must be below 100%');
  const m = combined(terms);
  const fixed = BigInt(terms.fixedFee);
  const bps = BigInt(terms.variableFeeBps);
  const counterpartyFee = BigInt(terms.counterpartyFixedFee);
  let sending: bigint;
  let receiving: bigint;
  if (side === 'SENDING') {
    sending = BigInt(amount);
    const net = sending - fixed - variableFee(sending, bps);
    if (net <= 0n) return 'BELOW_FEES';
    receiving = floorTimes(net, m) - counterpartyFee;
  } else {
    receiving = BigInt(amount);
    sending = leastSendingFor(leastTimesReaching(receiving + counterpartyFee, m), fixed, bps);
  }
  if (receiving <= 0n) return 'BELOW_FEES';
  if (sending > MAX || receiving > MAX) return 'ABOVE_LIMIT';
  const variable = variableFee(sending, bps);
  const fees = fixed + variable;
  return {
    totalSendingAmount: Number(sending),
    totalReceivingAmount: Number(receiving),
    feesIncluded: Number(fees),
    variableFeeAmount: Number(variable),
    exchangeRate: roundRatio((sending - fees) * 10n ** BigInt(decimals.receiving), receiving * 10n ** BigInt(decimals.sending), EXCHANGE_RATE_DIGITS),
  };
}

/** The `rateDetails` of a priced quote: the terms as numbers, each exactly its decimal. */
export function rateDetailsOf(terms: PriceTerms, price: Price): RateDetails {
  return {
    ...(terms.counterpartyMultiplier === undefined ? {} : { counterpartyMultiplier: decimalNumber(terms.counterpartyMultiplier) }),
    ...(terms.counterpartyMultiplier === undefined && terms.counterpartyFixedFee === 0 ? {} : { counterpartyFixedFee: terms.counterpartyFixedFee }),
    serviceApiMultiplier: decimalNumber(terms.serviceMultiplier),
    serviceApiFixedFee: terms.fixedFee,
    serviceApiVariableFeeRate: terms.variableFeeBps / 10_000,
    serviceApiVariableFeeAmount: price.variableFeeAmount,
  };
}
