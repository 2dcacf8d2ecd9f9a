// Property tests of quote pricing (server/exchange-rates/pricing.ts) over random amounts, multipliers and
// fees, and over every pair of the sandbox market (currencies with 0, 2, 3, 6 and 8 decimals).
// Each property recomputes the documented rule with bigints from the numbers a client would read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multiplier, RATED_CURRENCIES, rateWindow, serviceFixedFee, SERVICE_VARIABLE_FEE_BPS } from '../../server/exchange-rates/sandbox-market.ts';
import { priceQuote, rateDetailsOf, type Price, type PriceDecimals, type PriceTerms } from '../../server/exchange-rates/pricing.ts';
import { currency } from '../../server/shared/currencies.ts';
import { decimalText, parseDecimal, type ExactDecimal } from '../../server/shared/exact-decimal.ts';
import { MAX_AMOUNT } from '../../server/shared/money.ts';

const MAX = BigInt(MAX_AMOUNT);
const SEED = 20251013;
const runs = { seed: SEED, numRuns: 2_000 };

/** Parses a JSON number as the decimal a client reads (plain notation; exponents expanded). */
function fromNumber(n: number): ExactDecimal {
  const text = n.toLocaleString('en-US', { useGrouping: false, maximumSignificantDigits: 21 });
  return parseDecimal(text);
}
const times = (amount: bigint, d: ExactDecimal) => (amount * d.digits) / 10n ** BigInt(d.scale);

/** What the documented rule delivers for `sending`, read back from the quote's own numbers. */
function receivingFor(sending: bigint, details: ReturnType<typeof rateDetailsOf>): { net: bigint; receiving: bigint } {
  const bps = BigInt(Math.round(details.serviceApiVariableFeeRate * 10_000));
  const fees = BigInt(details.serviceApiFixedFee) + (sending * bps) / 10_000n;
  const net = sending - fees;
  let converted = times(net, fromNumber(details.serviceApiMultiplier));
  if (details.counterpartyMultiplier !== undefined) {
    const m = fromNumber(details.serviceApiMultiplier);
    const c = fromNumber(details.counterpartyMultiplier);
    converted = (net * m.digits * c.digits) / 10n ** BigInt(m.scale + c.scale);
  }
  return { net, receiving: converted - BigInt(details.counterpartyFixedFee ?? 0) };
}

function checkPrice(terms: PriceTerms, side: 'SENDING' | 'RECEIVING', amount: number, decimals: PriceDecimals, price: Price): void {
  const { totalSendingAmount: s, totalReceivingAmount: r, feesIncluded: fees } = price;
  for (const n of [s, r, fees]) expect(Number.isSafeInteger(n)).toBe(true);
  // The locked side is exact; nothing is above the cap; fees are never negative.
  expect(side === 'SENDING' ? s : r).toBe(amount);
  expect(s).toBeGreaterThan(0);
  expect(r).toBeGreaterThan(0);
  expect(s).toBeLessThanOrEqual(MAX_AMOUNT);
  expect(r).toBeLessThanOrEqual(MAX_AMOUNT);
  expect(fees).toBeGreaterThanOrEqual(0);
  expect(fees).toBeLessThan(s);
  // rateDetails agree with the amounts: recomputed from the response's numbers alone.
  const details = rateDetailsOf(terms, price);
  expect(details.serviceApiFixedFee + details.serviceApiVariableFeeAmount).toBe(fees);
  const { net, receiving } = receivingFor(BigInt(s), details);
  expect(net).toBe(BigInt(s - fees));
  if (side === 'SENDING') expect(receiving).toBe(BigInt(r));
  else {
    // The least total that delivers the locked amount: one unit less would not.
    expect(receiving).toBeGreaterThanOrEqual(BigInt(r));
    expect(receivingFor(BigInt(s) - 1n, details).receiving).toBeLessThan(BigInt(r));
  }
  // exchangeRate is sending units per receiving unit in whole units, (net / 10^ds) / (receiving /
  // 10^dr), to 8 significant digits, and its JSON number is that decimal.
  const rate = fromNumber(Number(decimalText(price.exchangeRate)));
  expect(decimalText(rate)).toBe(decimalText(price.exchangeRate));
  const exact = (Number(net) / r) * 10 ** (decimals.receiving - decimals.sending);
  expect(Math.abs(Number(decimalText(rate)) - exact) / exact).toBeLessThanOrEqual(5e-8);
}

const decimal = fc.record({ digits: fc.bigInt({ min: 1n, max: 9_999_999_999n }), scale: fc.integer({ min: 0, max: 18 }) });
const terms: fc.Arbitrary<PriceTerms> = fc.record(
  {
    serviceMultiplier: decimal,
    counterpartyMultiplier: decimal,
    counterpartyFixedFee: fc.integer({ min: 0, max: 100_000 }),
    fixedFee: fc.integer({ min: 0, max: 10_000_000 }),
    variableFeeBps: fc.integer({ min: 0, max: 9_999 }),
  },
  { requiredKeys: ['serviceMultiplier', 'counterpartyFixedFee', 'fixedFee', 'variableFeeBps'] },
);
const side = fc.constantFrom('SENDING' as const, 'RECEIVING' as const);
const decimalsOf: fc.Arbitrary<PriceDecimals> = fc.record({ sending: fc.integer({ min: 0, max: 8 }), receiving: fc.integer({ min: 0, max: 8 }) });
const sameDecimals: PriceDecimals = { sending: 2, receiving: 2 };
const amount = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: MAX_AMOUNT }));

describe('quote pricing', () => {
  it('keeps the locked side exact and every figure consistent, for any terms and amount', () => {
    fc.assert(
      fc.property(terms, side, amount, decimalsOf, (t, s, a, d) => {
        const price = priceQuote(t, s, a, d);
        if (typeof price !== 'string') checkPrice(t, s, a, d, price);
      }),
      runs,
    );
  });

  it('refuses only what cannot be priced: below the fees, or a side above the cap', () => {
    fc.assert(
      fc.property(terms, side, amount, (t, s, a) => {
        const price = priceQuote(t, s, a, sameDecimals);
        if (typeof price !== 'string') return;
        const m = t.counterpartyMultiplier === undefined ? t.serviceMultiplier : { digits: t.serviceMultiplier.digits * t.counterpartyMultiplier.digits, scale: t.serviceMultiplier.scale + t.counterpartyMultiplier.scale };
        if (s === 'SENDING') {
          const sending = BigInt(a);
          const net = sending - BigInt(t.fixedFee) - (sending * BigInt(t.variableFeeBps)) / 10_000n;
          const receiving = net > 0n ? times(net, m) - BigInt(t.counterpartyFixedFee) : 0n;
          expect(price).toBe(receiving <= 0n ? 'BELOW_FEES' : 'ABOVE_LIMIT');
          if (price === 'ABOVE_LIMIT') expect(receiving > MAX).toBe(true);
        } else {
          // Receiving is always reachable, so only the sending side can pass the cap.
          expect(price).toBe('ABOVE_LIMIT');
        }
      }),
      runs,
    );
  });

  it('prices every pair of the sandbox market in any window, whatever the decimals', () => {
    const code = fc.constantFrom(...RATED_CURRENCIES);
    const decimals = new Set(RATED_CURRENCIES.map((c) => currency(c).decimals));
    expect([...decimals].sort()).toEqual([0, 2, 3, 6, 8]);
    fc.assert(
      fc.property(code, code, fc.integer({ min: 0, max: 10_000_000 }), side, amount, (from, to, window, s, a) => {
        const at = new Date(window * 300_000 + 1);
        const t: PriceTerms = {
          serviceMultiplier: multiplier(rateWindow(at), from, to),
          counterpartyFixedFee: 0,
          fixedFee: serviceFixedFee(from),
          variableFeeBps: SERVICE_VARIABLE_FEE_BPS,
        };
        const d = { sending: currency(from).decimals, receiving: currency(to).decimals };
        const price = priceQuote(t, s, a, d);
        if (typeof price !== 'string') checkPrice(t, s, a, d, price);
        else if (s === 'SENDING' && a > 10 * serviceFixedFee(from) && price === 'BELOW_FEES') {
          // Only a conversion to a far smaller unit can leave nothing to deliver.
          expect(times(BigInt(a), t.serviceMultiplier)).toBeLessThan(1000n);
        }
      }),
      runs,
    );
  });

  it('states a rate in whole units: USD to BTC is about 95,000 USD per BTC, not 0.095 cents per satoshi', () => {
    // 1 USD buys 0.0000105 BTC in the sandbox's table: 95,238 USD per BTC, give or take its 0.25% drift.
    const m = multiplier(rateWindow(new Date(0)), 'USD', 'BTC');
    const price = priceQuote({ serviceMultiplier: m, counterpartyFixedFee: 0, fixedFee: 0, variableFeeBps: 0 }, 'SENDING', 100_000, { sending: 2, receiving: 8 });
    if (typeof price === 'string') throw new Error(price);
    const rate = Number(decimalText(price.exchangeRate));
    expect(rate).toBeGreaterThan(95_238 * 0.997);
    expect(rate).toBeLessThan(95_238 * 1.003);
    // And the other way: BTC units per USD.
    const back = priceQuote({ serviceMultiplier: multiplier(rateWindow(new Date(0)), 'BTC', 'USD'), counterpartyFixedFee: 0, fixedFee: 0, variableFeeBps: 0 }, 'SENDING', 1_000_000, { sending: 8, receiving: 2 });
    if (typeof back === 'string') throw new Error(back);
    expect(Number(decimalText(back.exchangeRate))).toBeCloseTo(0.0000105, 7);
  });

  it('shows every multiplier as a JSON number that is exactly its decimal', () => {
    for (const from of RATED_CURRENCIES) {
      for (const to of RATED_CURRENCIES) {
        const m = multiplier(rateWindow(new Date(0)), from, to);
        expect(decimalText(fromNumber(Number(decimalText(m))))).toBe(decimalText(m));
      }
    }
  });

  it('a same-currency quote converts at exactly 1 and charges only fees', () => {
    const price = priceQuote({ serviceMultiplier: parseDecimal('1'), counterpartyFixedFee: 0, fixedFee: 50, variableFeeBps: 100 }, 'SENDING', 10_000, sameDecimals);
    expect(price).toMatchObject({ totalSendingAmount: 10_000, feesIncluded: 150, totalReceivingAmount: 9_850 });
    const back = priceQuote({ serviceMultiplier: parseDecimal('1'), counterpartyFixedFee: 0, fixedFee: 50, variableFeeBps: 100 }, 'RECEIVING', 9_850, sameDecimals);
    // 9999 sent: fees 50 + floor(99.99) = 149, 9850 delivered; one unit less would deliver 9849.
    expect(back).toMatchObject({ totalSendingAmount: 9_999, feesIncluded: 149, totalReceivingAmount: 9_850 });
  });

  it('the sandbox market is stable inside a 5-minute window and moves between windows', () => {
    const a = multiplier(rateWindow(new Date(600_000)), 'USD', 'EUR');
    const b = multiplier(rateWindow(new Date(899_999)), 'USD', 'EUR');
    expect(b).toEqual(a);
    const later = Array.from({ length: 10 }, (_, i) => decimalText(multiplier(rateWindow(new Date(900_000 + i * 300_000)), 'USD', 'EUR')));
    expect(new Set(later).size).toBeGreaterThan(1);
    expect(MAX).toBe(9_000_000_000_000_000n);
  });
});
