// Strict RFC 3339 date and date-time checks. Regular expressions alone accept 2025-02-30, month 13,
// a leap second or a `+24:00` offset, which JavaScript and PostgreSQL then either shift to another
// day or refuse with an error; such values are rejected at the door instead.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function validCalendarDate(year: number, month: number, day: number): boolean {
  // Year 0 does not exist in PostgreSQL's calendar; 9999 is the last four-digit year.
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** `YYYY-MM-DD`, a day that exists. */
export function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && validCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** RFC 3339 date-time with every field in range; leap seconds (`:60`) are refused. */
export function isValidDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s, oh, om] = m;
  if (!validCalendarDate(Number(y), Number(mo), Number(d))) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) return false;
  return Number.isFinite(Date.parse(value));
}
