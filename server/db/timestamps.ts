// timestamptz values as PostgreSQL prints them ("2026-11-24 01:23:45.123456+00", the offset in the
// session's time zone), read into Dates without the general parser's regular expressions: a list
// of 20 customers reads 40 of them (postgres-date's share of such a request: bench/README.md).
// Anything outside the common shape (BC years, years before 1000, infinity) goes to postgres-date.
import pg from 'pg';

const general = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);
const isDigit = (c: number) => c >= 48 && c <= 57;

export function parseTimestamptz(text: string): Date {
  // YYYY-MM-DD HH:MM:SS, then an optional fraction, then ±HH[:MM[:SS]], nothing else.
  if (text.length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(0) === 48) return general(text) as Date;
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    // Milliseconds, truncated as postgres-date truncates them.
    let scale = 100;
    for (i++; isDigit(text.charCodeAt(i)); i++) {
      ms += digit(text, i) * scale;
      scale /= 10;
    }
    ms = Math.trunc(ms);
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return general(text) as Date;
  const rest = text.length - i;
  const minutes = rest >= 6 && text.charCodeAt(i + 3) === 58;
  const seconds = rest === 9 && minutes && text.charCodeAt(i + 6) === 58;
  if (!(rest === 3 || (rest === 6 && minutes) || seconds)) return general(text) as Date;
  const offset = (two(text, i + 1) * 3600 + (minutes ? two(text, i + 4) * 60 : 0) + (seconds ? two(text, i + 7) : 0)) * 1000;
  const utc = Date.UTC(digit(text, 0) * 1000 + digit(text, 1) * 100 + two(text, 2), two(text, 5) - 1, two(text, 8), two(text, 11), two(text, 14), two(text, 17), ms);
  return new Date(sign === 43 ? utc - offset : utc + offset);
}
