// server/shared/iso-time.ts writes every timestamp the API answers: it must give exactly the text
// of Date#toISOString, for any instant, including in a sequence of calls that changes day (it
// keeps the last day's date part).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoString } from '../../server/shared/iso-time.ts';

const runs = { seed: 20251013, numRuns: 20_000 };
/** Date's whole range, ±8.64e15 ms: six-digit and negative years are on toISOString's side of the fallback. */
const anyInstant = fc.integer({ min: -8.64e15, max: 8.64e15 });
/** Four-digit years, where the arithmetic path answers. */
const fourDigitYears = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });

describe('isoString', () => {
  it('matches toISOString at the edges of days, months, leap years, centuries and its own range', () => {
    const edges = [
      '0000-01-01T00:00:00.000Z', '0000-02-29T12:00:00.000Z', '0000-12-31T23:59:59.999Z', '0999-12-31T23:59:59.999Z', '1000-01-01T00:00:00.000Z',
      '1600-02-29T00:00:00.000Z', '1700-02-28T23:59:59.999Z', '1700-03-01T00:00:00.000Z', '1899-12-31T23:59:59.999Z', '1900-03-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.001Z', '2000-02-29T23:59:59.999Z', '2000-03-01T00:00:00.000Z',
      '2024-12-31T23:59:59.999Z', '2026-11-24T03:04:05.006Z', '2100-02-28T00:00:00.000Z', '2100-03-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z',
    ];
    for (const text of edges) expect(isoString(new Date(text))).toBe(text);
    for (const t of [-62_167_219_200_001, 253_402_300_800_000, -8.64e15, 8.64e15]) expect(isoString(new Date(t))).toBe(new Date(t).toISOString());
  });

  it('matches toISOString for any instant Date can hold', () => {
    fc.assert(fc.property(anyInstant, (t) => isoString(new Date(t)) === new Date(t).toISOString()), runs);
    fc.assert(fc.property(fourDigitYears, (t) => isoString(new Date(t)) === new Date(t).toISOString()), runs);
  });

  it('matches toISOString along sequences that stay on a day, cross midnight and jump back', () => {
    const sequence = fc.array(fc.tuple(fourDigitYears, fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 })), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(sequence, (steps) =>
        steps.every(([start, delta]) => {
          const near = Math.min(Math.max(start + delta, -62_167_219_200_000), 253_402_300_799_999);
          return isoString(new Date(start)) === new Date(start).toISOString() && isoString(new Date(near)) === new Date(near).toISOString();
        }),
      ),
      { ...runs, numRuns: 5_000 },
    );
  });

  it('throws as toISOString does for an invalid Date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
