// What reaches a handler, made strict. Strings holding a NUL or a lone surrogate (which PostgreSQL
// refuses, or stores as something else) and numbers that are not finite (JSON's 1e400) are
// refused wherever they appear. Query parameters arrive as text and are read by their schema's
// type with one exact lexical form each: `limit=0x10`, `limit= 1` or `limit=Infinity` are not
// numbers here, whatever a lenient coercion makes of them.
import type { IncomingMessage } from 'node:http';
import { invalidFields, type FieldError } from '../shared/errors.ts';
import type { ParameterInfo } from './contract-index.ts';

/** Whether the request carries a body at all (an empty one is none: `""` is not JSON). */
export const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Finds unsafe values in a parsed body, query or path: a field error for each. */
export function unsafeValues(value: unknown, field: string, errors: FieldError[] = []): FieldError[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) errors.push({ field, message: 'must not contain a NUL character', constraint: 'pattern' });
    else if (!value.isWellFormed()) errors.push({ field, message: 'must be valid Unicode (it holds a lone surrogate)', constraint: 'pattern' });
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) errors.push({ field, message: 'must be a finite number', constraint: 'type' });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unsafeValues(item, `${field}/${i}`, errors));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const child = `${field === '/' ? '' : field}/${key}`;
      if (key.includes('\u0000') || !key.isWellFormed()) errors.push({ field: child, message: 'property name must be valid text without NUL', constraint: 'propertyNames' });
      else unsafeValues(item, child, errors);
    }
  }
  return errors;
}

export function assertSafe(value: unknown, field: string): void {
  const errors = unsafeValues(value, field);
  if (errors.length > 0) throw invalidFields(errors);
}

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

function readScalar(text: string, type: unknown): { value: unknown } | { problem: string } {
  switch (type) {
    case 'integer': {
      const n = Number(text);
      return INTEGER.test(text) && Number.isSafeInteger(n) ? { value: n } : { problem: 'must be an integer, written in decimal digits' };
    }
    case 'number': {
      const n = Number(text);
      return NUMBER.test(text) && Number.isFinite(n) ? { value: n } : { problem: 'must be a number, written in decimal' };
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : { problem: 'must be true or false' };
    default:
      return { value: text };
  }
}

/**
 * The query as sent. The validator coerces the query object in place (`0x10` becomes 16), so the
 * text is read again from the URL, the way Express parses it (node:querystring).
 */
export function rawQuery(originalUrl: string): Record<string, string | string[]> {
  const search = originalUrl.includes('?') ? originalUrl.slice(originalUrl.indexOf('?') + 1) : '';
  const raw: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const seen = raw[name];
    raw[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return raw;
}

/** The query, typed by the operation's parameter schemas (the validator has already checked it). */
export function typedQuery(raw: Record<string, string | string[]>, parameters: readonly ParameterInfo[]): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const p of parameters.filter((x) => x.in === 'query')) {
    const given = raw[p.name];
    if (given === undefined) continue;
    const field = `query.${p.name}`;
    if (p.schema.type === 'array') {
      const items = (Array.isArray(given) ? given : [given]).map((item) => readScalar(String(item), (p.schema.items as { type?: unknown } | undefined)?.type));
      const bad = items.find((r) => 'problem' in r);
      if (bad !== undefined && 'problem' in bad) errors.push({ field, message: bad.problem, constraint: 'type' });
      else query[p.name] = items.map((r) => ('value' in r ? r.value : undefined));
      continue;
    }
    if (typeof given !== 'string') {
      errors.push({ field, message: 'must be given once, as a single value', constraint: 'type' });
      continue;
    }
    const read = readScalar(given, p.schema.type);
    if ('problem' in read) errors.push({ field, message: read.problem, constraint: 'type' });
    else query[p.name] = read.value;
  }
  if (errors.length > 0) throw invalidFields(errors);
  return query;
}
