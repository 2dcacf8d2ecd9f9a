// Compares an example with what a model wrote back, as JSON values: objects by their keys whatever
// their order, arrays item by item, numbers by value (JSON has one number type: `17` and `17.0` are
// the same number, and Python writes a `number` that holds 17 as `17.0`). One normalisation: two
// RFC 3339 date-times are equal when they name the same instant to the same fraction of a second
// (Python's datetime writes `Z` as `+00:00`, Go's time.Time drops a zero fraction `.000`); a model
// that moves the instant, or rounds a fraction away, is still a difference.

export interface Difference {
  /** JSON pointer into the example. */
  at: string;
  /** The example's value there, or ABSENT. */
  expected: unknown;
  /** The model's value there, or ABSENT. */
  actual: unknown;
}

/** A key one side has and the other has not. */
export const ABSENT = Symbol('absent');
export const show = (value: unknown) => (value === ABSENT ? '(absent)' : JSON.stringify(value));

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** `<UTC seconds since 1970>.<fraction without trailing zeros>`, or undefined when `s` is no date-time. */
export function instant(s: string): string | undefined {
  const m = DATE_TIME.exec(s);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, sec, fraction = '', zone, sign, oh, om] = m;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec)) / 1000;
  const offset = zone === 'Z' || zone === 'z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  return `${local - offset}.${fraction.replace(/0+$/, '')}`;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

export function differences(expected: unknown, actual: unknown, at = ''): Difference[] {
  if (kind(expected) !== kind(actual)) return [{ at, expected, actual }];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [{ at, expected, actual }];
    return expected.flatMap((item, i) => differences(item, actual[i], `${at}/${i}`));
  }
  if (kind(expected) === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
    return keys.flatMap((key) =>
      key in e && key in a ? differences(e[key], a[key], `${at}/${escape(key)}`) : [{ at: `${at}/${escape(key)}`, expected: key in e ? e[key] : ABSENT, actual: key in a ? a[key] : ABSENT }],
    );
  }
  if (typeof expected === 'string' && typeof actual === 'string' && expected !== actual) {
    const same = instant(expected) !== undefined && instant(expected) === instant(actual);
    return same ? [] : [{ at, expected, actual }];
  }
  return expected === actual ? [] : [{ at, expected, actual }];
}
