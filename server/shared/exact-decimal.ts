// Exact decimals for rates: `digits / 10^scale` held in bigints, so that a multiplier shown in a
// response (a JSON number with a few significant digits) is exactly the one the amounts were
// computed with. Amounts never pass through floating point.

export interface ExactDecimal {
  /** A positive integer. */
  readonly digits: bigint;
  readonly scale: number;
}

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);

/** Parses a plain positive decimal (`18.5185`, `0.00001`); no exponent, no sign. */
export function parseDecimal(text: string): ExactDecimal {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) throw new RangeError(`not a plain decimal: ${text}`);
  const [, whole = '', fraction = ''] = match;
  const digits = BigInt(whole + fraction);
  if (digits <= 0n) throw new RangeError(`not a positive decimal: ${text}`);
  return { digits, scale: fraction.length };
}

export const ONE: ExactDecimal = { digits: 1n, scale: 0 };

export function multiply(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return { digits: a.digits * b.digits, scale: a.scale + b.scale };
}

/** The decimal as plain text, without trailing zeros (`0.054`, `16`). */
export function decimalText(d: ExactDecimal): string {
  const raw = d.digits.toString().padStart(d.scale + 1, '0');
  const whole = raw.slice(0, raw.length - d.scale);
  const fraction = raw.slice(raw.length - d.scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * The JSON number of a decimal. Exact to the reader as long as it has at most 15 significant
 * digits: the shortest text of the double is then the decimal itself.
 */
export const decimalNumber = (d: ExactDecimal): number => Number(decimalText(d));

/** `num / den` (both positive) rounded half up to `significant` significant digits. */
export function roundRatio(num: bigint, den: bigint, significant: number): ExactDecimal {
  if (num <= 0n || den <= 0n) throw new RangeError('roundRatio needs positive operands');
  const fraction = (s: number): [bigint, bigint] => (s >= 0 ? [num * pow10(s), den] : [num, den * pow10(-s)]);
  const quotient = (s: number) => {
    const [n, d] = fraction(s);
    return n / d;
  };
  // The scale s at which floor(num / den × 10^s) has exactly `significant` digits.
  let s = significant - 1 - (num.toString().length - den.toString().length);
  while (quotient(s) >= pow10(significant)) s -= 1;
  while (quotient(s) < pow10(significant - 1)) s += 1;
  const [n, d] = fraction(s);
  const rounded = (2n * n + d) / (2n * d);
  return normalize(s >= 0 ? { digits: rounded, scale: s } : { digits: rounded * pow10(-s), scale: 0 });
}

/** The same value with trailing zeros of the fraction removed. */
function normalize(d: ExactDecimal): ExactDecimal {
  let { digits, scale } = d;
  while (scale > 0 && digits % TEN === 0n) {
    digits /= TEN;
    scale -= 1;
  }
  return { digits, scale };
}

/** floor(amount × d) for a whole amount >= 0. */
export const floorTimes = (amount: bigint, d: ExactDecimal): bigint => (amount * d.digits) / pow10(d.scale);

/** The least whole n with floor(n × d) >= target, for target >= 0: ceil(target / d). */
export function leastTimesReaching(target: bigint, d: ExactDecimal): bigint {
  const num = target * pow10(d.scale);
  return (num + d.digits - 1n) / d.digits;
}
