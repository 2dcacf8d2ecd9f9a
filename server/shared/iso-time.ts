// Date#toISOString goes through V8's runtime on every call, and a list of 20 customers writes 40
// timestamps (its measured share: bench/README.md). For the years it writes
// with four digits (0000 to 9999), the same text is built here in plain arithmetic, the date part
// from the day count (Hinnant's civil_from_days) and kept for the next call on the same day;
// anything else (other years, an invalid Date) still goes to toISOString.
const FIRST = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const LAST = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
const DAY_MS = 86_400_000;

const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

let lastDay = Number.NaN;
let lastDate = '';

/** `YYYY-MM-DDT` of the day `days` after 1970-01-01. */
function datePart(days: number): string {
  // Days since 0000-03-01, so that the leap day ends each 400-year era's years.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year < 1000 ? `0${THREE[year]}` : year}-${TWO[month]}-${TWO[day]}T`;
}

/** The same text as `d.toISOString()`. */
export function isoString(d: Date): string {
  const t = d.getTime();
  if (!(t >= FIRST && t <= LAST)) return d.toISOString();
  const msOfDay = ((t % DAY_MS) + DAY_MS) % DAY_MS;
  const days = (t - msOfDay) / DAY_MS;
  if (days !== lastDay) {
    lastDate = datePart(days);
    lastDay = days;
  }
  const seconds = Math.floor(msOfDay / 1000);
  return `${lastDate}${TWO[Math.floor(seconds / 3600)]}:${TWO[Math.floor(seconds / 60) % 60]}:${TWO[seconds % 60]}.${THREE[msOfDay % 1000]}Z`;
}
