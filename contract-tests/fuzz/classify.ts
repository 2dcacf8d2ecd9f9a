// Whether the contract allows a request, decided by the independent validator on the values as the
// server will read them: path parameters decoded, query values coerced to their schema's type,
// the body parsed from the very text sent.
import { validateAgainst } from '../support/schema-validator.ts';
import type { Draft } from './draft.ts';

type Json = Record<string, unknown>;

/** A query or header value as the schema sees it: numbers and booleans are read from the text. */
function coerce(value: string, schema: Json): unknown {
  const type = schema.type ?? (schema.$ref === undefined ? undefined : 'string');
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function decoded(value: string, raw: boolean): string | undefined {
  if (!raw) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** NUL and lone surrogates are never text a payments API takes, whatever a schema's pattern says. */
const UNTEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The reasons the contract refuses the request; empty when it is valid. */
export async function contractRefusals(d: Draft): Promise<string[]> {
  const reasons: string[] = [];
  const texts = [...Object.entries(d.path).map(([name, v]) => decoded(v, d.rawPath.has(name)) ?? ''), ...d.query.map(([, v]) => v), ...Object.values(d.headers)];
  if (texts.some((t) => UNTEXT.test(t))) reasons.push('a NUL or lone surrogate in a parameter');
  for (const p of d.shape.params) {
    let values: unknown[] = [];
    if (p.in === 'path') {
      const value = decoded(d.path[p.name] ?? '', d.rawPath.has(p.name));
      // A segment that decodes to a slash, or does not decode, never reaches the operation.
      if (value === undefined || value === '' || value.includes('/')) {
        reasons.push(`path.${p.name} is not a single segment`);
        continue;
      }
      values = [value];
    } else if (p.in === 'query') {
      const given = d.query.filter(([n]) => n === p.name).map(([, v]) => v);
      if (given.length === 0) {
        if (p.required) reasons.push(`query.${p.name} is missing`);
        continue;
      }
      const items = (p.schema.items as Json | undefined) ?? {};
      values = p.schema.type === 'array' ? [given.map((v) => coerce(v, items))] : given.length > 1 ? [given] : [coerce(given[0] as string, p.schema)];
    } else {
      const given = Object.entries(d.headers).find(([n]) => n.toLowerCase() === p.name.toLowerCase())?.[1];
      if (given === undefined) {
        if (p.required) reasons.push(`header.${p.name} is missing`);
        continue;
      }
      values = [coerce(given, p.schema)];
    }
    for (const value of values) {
      if ((await validateAgainst(p.pointer, value)).length > 0) reasons.push(`${p.in}.${p.name} is invalid: ${JSON.stringify(value).slice(0, 80)}`);
    }
  }
  const body = d.shape.body;
  if (body !== undefined) {
    if (d.contentType !== undefined && !d.contentType.startsWith(body.type)) reasons.push(`content type ${d.contentType}`);
    let value: unknown = body.type === 'multipart/form-data' ? d.form : d.json;
    if (d.bodyText !== undefined && body.type === 'application/json') {
      try {
        value = d.bodyText === '' ? undefined : JSON.parse(d.bodyText);
      } catch {
        reasons.push('malformed JSON');
        return reasons;
      }
    }
    if (value === undefined) {
      if (body.required) reasons.push('body is missing');
    } else if ((await validateAgainst(body.pointer, value)).length > 0) {
      reasons.push('body is invalid');
    }
  }
  return reasons;
}
