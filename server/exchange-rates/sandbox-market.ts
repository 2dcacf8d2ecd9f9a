// The sandbox's market: what each currency is worth against the US dollar, how the rate of a
// pair moves from one 5-minute window to the next, and the service's own fees. Rates are a pure
// function of the window, so every server process (and every read inside a window) sees the same
// rate without sharing a cache. Spec: `GET /exchange-rates` ("cached for about 5 minutes").
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import { currency } from '../shared/currencies.ts';
import { floorTimes, ONE, parseDecimal, roundRatio, type ExactDecimal } from '../shared/exact-decimal.ts';
import { MAX_AMOUNT } from '../shared/money.ts';

type PaymentRail = components['schemas']['PaymentRail'];

/** Units of each currency per one US dollar, in major units. */
const PER_USD: Readonly<Record<string, string>> = {
  USD: '1',
  EUR: '0.92',
  GBP: '0.79',
  MXN: '18.52',
  AED: '3.6725',
  CAD: '1.36',
  BRL: '5.05',
  INR: '83.2',
  PHP: '56.1',
  NGN: '1550',
  JPY: '151.3',
  KWD: '0.3075',
  BTC: '0.0000105',
  USDC: '1',
};

/** The rail a payment in each currency is delivered over, as exchange rates list it. */
const DELIVERY_RAIL: Readonly<Record<string, PaymentRail>> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  GBP: 'FASTER_PAYMENTS',
  MXN: 'SPEI',
  AED: 'UAEFTS',
  CAD: 'BANK_TRANSFER',
  BRL: 'BANK_TRANSFER',
  INR: 'BANK_TRANSFER',
  PHP: 'BANK_TRANSFER',
  NGN: 'BANK_TRANSFER',
  JPY: 'BANK_TRANSFER',
  KWD: 'BANK_TRANSFER',
  BTC: 'LIGHTNING',
  USDC: 'SPARK',
};

export const RATE_WINDOW_MS = 5 * 60_000;
/** How far a pair's rate moves away from the table, at most, in basis points. */
const MAX_DRIFT_BPS = 25;
/** Significant digits of a multiplier: few enough that its JSON number is the exact decimal. */
const MULTIPLIER_DIGITS = 10;

/** The service's own fees: 1% of the amount sent plus the value of 0.50 USD. */
export const SERVICE_VARIABLE_FEE_BPS = 100;
const SERVICE_FIXED_FEE_USD = '0.5';

export const RATED_CURRENCIES: readonly string[] = Object.keys(PER_USD);
export const hasRate = (code: string): boolean => Object.hasOwn(PER_USD, code);
export const deliveryRail = (code: string): PaymentRail => DELIVERY_RAIL[code] ?? 'BANK_TRANSFER';

function perUsd(code: string): ExactDecimal {
  const value = PER_USD[code];
  if (value === undefined) throw new RangeError(`no sandbox rate for ${code}`);
  return parseDecimal(value);
}

/** Units of `code` per US dollar, as receiver lookups show it (`estimatedExchangeRate`). */
export const unitsPerUsd = (code: string): number => Number(PER_USD[code]);

export interface RateWindow {
  readonly index: number;
  /** When the window's rates were computed: `updatedAt` of exchange rates. */
  readonly start: Date;
}

export function rateWindow(now: Date): RateWindow {
  const index = Math.floor(now.getTime() / RATE_WINDOW_MS);
  return { index, start: new Date(index * RATE_WINDOW_MS) };
}

/** The drift of a pair in a window, in basis points: the same for every reader of the window. */
function driftBps(window: RateWindow, from: string, to: string): number {
  const hash = createHash('sha256').update(`${window.index}:${from}:${to}`).digest();
  return (hash.readUInt32BE(0) % (2 * MAX_DRIFT_BPS + 1)) - MAX_DRIFT_BPS;
}

/**
 * Smallest units of `to` per smallest unit of `from` in the window (`serviceApiMultiplier`),
 * rounded to 10 significant digits. Exactly 1 for a currency to itself.
 */
export function multiplier(window: RateWindow, from: string, to: string): ExactDecimal {
  if (from === to) return ONE;
  const f = perUsd(from);
  const t = perUsd(to);
  const decimalsShift = currency(to).decimals - currency(from).decimals;
  const drift = BigInt(10_000 + driftBps(window, from, to));
  const num = t.digits * 10n ** BigInt(f.scale + Math.max(decimalsShift, 0)) * drift;
  const den = f.digits * 10n ** BigInt(t.scale + Math.max(-decimalsShift, 0)) * 10_000n;
  return roundRatio(num, den, MULTIPLIER_DIGITS);
}

/** `usd` US dollars (a plain decimal) in smallest units of `code`, rounded half up, at least 1. */
function dollarsIn(code: string, usd: string): number {
  const rate = perUsd(code);
  const dollars = parseDecimal(usd);
  const num = rate.digits * dollars.digits * 10n ** BigInt(currency(code).decimals);
  const den = 10n ** BigInt(rate.scale + dollars.scale);
  const rounded = (2n * num + den) / (2n * den);
  return Math.max(1, Math.min(Number(rounded), MAX_AMOUNT));
}

/** The service's fixed fee in smallest units of the sending currency. */
export const serviceFixedFee = (code: string): number => dollarsIn(code, SERVICE_FIXED_FEE_USD);

/** What one payment in `code` may carry when the platform sets no limits: 1 to 10,000,000 USD worth. */
export const defaultLimits = (code: string): { min: number; max: number } => ({ min: dollarsIn(code, '1'), max: dollarsIn(code, '10000000') });

/** `amount` smallest units of `from` in smallest units of `to` at the window's rate (rounded down). */
export function valueIn(window: RateWindow, amount: number, from: string, to: string): number {
  return Number(floorTimes(BigInt(amount), multiplier(window, from, to)));
}
