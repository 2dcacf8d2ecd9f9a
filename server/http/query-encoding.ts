// RFC 3986 lets a query carry `:`, `@`, `/`, `$` and other sub-delimiters unencoded, and curl or a
// browser sends `?customerId=Customer:0195...` or `?createdAfter=2025-10-13T12:00:00Z` as typed.
// express-openapi-validator refuses such values ("must be url encoded"). They mean nothing to
// form decoding, so percent-encoding them before validation changes no value; `&`, `=` and `%`,
// which do mean something, are left alone. A `+` is a space to form decoding (and to the query
// parser), as URLSearchParams and HTML forms write it: it becomes `%20`, the same value, which the
// validator accepts (a literal plus is `%2B`, as before).
import type { RequestHandler } from 'express';

const HARMLESS_RESERVED = /[:@/?!$'()*,;[\]]/g;
const encode = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

function encodeQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  return url.slice(0, at + 1) + url.slice(at + 1).replace(HARMLESS_RESERVED, encode).replaceAll('+', '%20');
}

export const encodeReservedQueryCharacters: RequestHandler = (req, _res, next) => {
  if (req.url.includes('?')) {
    req.url = encodeQuery(req.url);
    req.originalUrl = encodeQuery(req.originalUrl);
  }
  next();
};
