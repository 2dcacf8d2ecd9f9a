// The ways the fuzzer breaks a valid request. `always` mutations make a request the contract
// refuses whatever the schema says (malformed JSON, NUL bytes, non-finite numbers, a forged
// cursor); the others change values and leave the verdict to the schemas (classify.ts).
import { randomUUID } from 'node:crypto';
import type { Draft } from './draft.ts';

type Json = Record<string, unknown>;

export interface Mutation {
  name: string;
  always: boolean;
  applies(d: Draft): boolean;
  apply(d: Draft, pick: () => number): void;
}

const choose = <T>(items: readonly T[], pick: () => number): T => items[pick() % items.length] as T;

/** Every place in a JSON value, as the parent holding it and its key. */
function places(value: unknown): { parent: Json | unknown[]; key: string | number; value: unknown }[] {
  const found: { parent: Json | unknown[]; key: string | number; value: unknown }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => (found.push({ parent: v, key: i, value: item }), walk(item)));
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) (found.push({ parent: v as Json, key: k, value: item }), walk(item));
  };
  walk(value);
  return found;
}

const set = (place: { parent: Json | unknown[]; key: string | number }, value: unknown) => {
  (place.parent as Record<string | number, unknown>)[place.key] = value;
};

const hasJson = (d: Draft) => d.json !== undefined;
const jsonPlaces = (d: Draft, wanted: (v: unknown) => boolean) => places(d.json).filter((p) => wanted(p.value));
const isString = (v: unknown) => typeof v === 'string';

/** Puts `marker` into a string or number of the body, then writes the body with the marker swapped for `raw` JSON text. */
function rawValue(d: Draft, pick: () => number, raw: string, where: (v: unknown) => boolean): void {
  const candidates = jsonPlaces(d, where);
  const marker = `__fuzz_${randomUUID()}__`;
  if (candidates.length > 0) set(choose(candidates, pick), marker);
  else if (d.json !== null && typeof d.json === 'object' && !Array.isArray(d.json)) (d.json as Json).amount = marker;
  else d.json = { amount: marker };
  d.bodyText = JSON.stringify(d.json).replace(JSON.stringify(marker), raw);
}

const withPathIds = (d: Draft) => Object.keys(d.path).length > 0;
const queryParams = (d: Draft) => d.shape.params.filter((p) => p.in === 'query');

export const mutations: Mutation[] = [
  {
    name: 'drop a field',
    always: false,
    applies: (d) => jsonPlaces(d, () => true).some((p) => !Array.isArray(p.parent)),
    apply(d, pick) {
      const place = choose(jsonPlaces(d, () => true).filter((p) => !Array.isArray(p.parent)), pick);
      delete (place.parent as Json)[place.key as string];
    },
  },
  {
    name: 'wrong type',
    always: false,
    applies: (d) => jsonPlaces(d, () => true).length > 0,
    apply(d, pick) {
      const place = choose(jsonPlaces(d, () => true), pick);
      const others = [12345, 'text', true, null, [], {}, [1, 2], -0.5].filter((v) => typeof v !== typeof place.value || Array.isArray(v) !== Array.isArray(place.value));
      set(place, choose(others, pick));
    },
  },
  {
    name: 'number out of range',
    always: false,
    applies: (d) => jsonPlaces(d, (v) => typeof v === 'number').length > 0,
    apply(d, pick) {
      set(choose(jsonPlaces(d, (v) => typeof v === 'number'), pick), choose([-1, 0, 0.5, 2 ** 53, 9.3e18, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2], pick));
    },
  },
  {
    name: 'non-finite number',
    always: true,
    applies: hasJson,
    apply: (d, pick) => rawValue(d, pick, choose(['1e999', '-1e999', '1E400'], pick), (v) => typeof v === 'number'),
  },
  {
    name: 'NUL byte',
    always: true,
    applies: (d) => jsonPlaces(d, isString).length > 0,
    apply(d, pick) {
      const place = choose(jsonPlaces(d, isString), pick);
      set(place, `${String(place.value)}\u0000x`);
    },
  },
  {
    name: 'lone surrogate',
    always: true,
    applies: (d) => jsonPlaces(d, isString).length > 0,
    apply: (d, pick) => rawValue(d, pick, '"abc\\ud800def"', isString),
  },
  {
    name: 'impossible date',
    always: false,
    applies: (d) => jsonPlaces(d, (v) => isString(v) && /^\d{4}-\d{2}-\d{2}/.test(v as string)).length > 0 || queryParams(d).some((p) => p.schema.format === 'date-time'),
    apply(d, pick) {
      const dates = jsonPlaces(d, (v) => isString(v) && /^\d{4}-\d{2}-\d{2}/.test(v as string));
      const value = (v: string) => (v.includes('T') ? choose(['2026-02-30T10:00:00Z', '2026-13-01T10:00:00Z', '2026-01-01T25:61:00Z', '0000-00-00T00:00:00Z'], pick) : choose(['2026-02-30', '2025-13-45', '1900-00-00'], pick));
      if (dates.length > 0) {
        const place = choose(dates, pick);
        set(place, value(place.value as string));
      } else {
        const param = choose(queryParams(d).filter((p) => p.schema.format === 'date-time'), pick);
        d.query = [...d.query.filter(([n]) => n !== param.name), [param.name, value('T')]];
      }
    },
  },
  {
    name: 'very long string',
    always: false,
    applies: (d) => jsonPlaces(d, isString).length > 0,
    apply: (d, pick) => set(choose(jsonPlaces(d, isString), pick), 'x'.repeat(choose([300, 5_000, 100_000], pick))),
  },
  {
    name: 'extra property',
    always: false,
    applies: (d) => d.json !== null && typeof d.json === 'object',
    apply(d, pick) {
      const objects = [d.json, ...jsonPlaces(d, (v) => v !== null && typeof v === 'object' && !Array.isArray(v)).map((p) => p.value)].filter((v) => !Array.isArray(v)) as Json[];
      const target = choose(objects, pick);
      if (target !== undefined) target[choose(['unexpectedField', 'isAdmin', 'platformId', 'balance'], pick)] = choose([1, 'x', true, { nested: 1 }], pick);
    },
  },
  {
    name: '__proto__ key',
    always: false,
    applies: (d) => d.json !== null && typeof d.json === 'object' && !Array.isArray(d.json) && Object.keys(d.json as object).length > 0,
    apply(d) {
      d.bodyText = `{"__proto__":{"isAdmin":true},${JSON.stringify(d.json).slice(1)}`;
    },
  },
  {
    name: 'body not an object',
    always: false,
    applies: hasJson,
    apply(d, pick) {
      d.json = choose([[], [d.json], 42, 'text', false], pick);
    },
  },
  {
    name: 'JSON null body',
    always: true,
    applies: hasJson,
    apply(d) {
      d.bodyText = 'null';
    },
  },
  {
    name: 'malformed JSON',
    always: true,
    applies: (d) => d.shape.body?.type === 'application/json',
    apply(d, pick) {
      const text = JSON.stringify(d.json ?? { a: 1 });
      d.bodyText = choose([text.slice(0, Math.max(1, pick() % text.length)), `${text}}`, `{'single': 'quotes'}`, '{"a":1,}', '{"a":01}', '\u0000', '{"a":"\\x41"}'], pick);
    },
  },
  {
    name: 'wrong content type',
    always: true,
    applies: (d) => d.shape.body !== undefined,
    apply(d, pick) {
      d.bodyText = JSON.stringify(d.json ?? d.form ?? {});
      d.contentType = choose(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/jsonx'], pick);
    },
  },
  {
    name: 'empty body',
    always: true,
    applies: (d) => d.shape.body?.required === true,
    apply(d) {
      d.bodyText = '';
      d.contentType = d.shape.body?.type === 'multipart/form-data' ? 'multipart/form-data; boundary=x' : 'application/json';
    },
  },
  {
    name: 'oversized body',
    always: true,
    applies: (d) => d.shape.body?.type === 'application/json',
    apply(d) {
      d.bodyText = JSON.stringify({ ...(d.json as Json), padding: 'x'.repeat(1_100_000) });
    },
  },
  {
    name: 'malformed multipart',
    always: true,
    applies: (d) => d.shape.body?.type === 'multipart/form-data',
    apply(d, pick) {
      d.contentType = choose(['multipart/form-data; boundary=zzz', 'multipart/form-data', 'multipart/form-data; boundary="'], pick);
      d.bodyText = choose(['--zzz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', 'not multipart at all', '--zzz--\r\n', '--zzz\r\nContent-Disposition: form-data\r\n\r\nx\r\n--zzz--\r\n'], pick);
    },
  },
  {
    name: 'file of another type',
    always: true,
    applies: (d) => d.form !== undefined,
    apply(d, pick) {
      (d.form as Json).file = choose(['plain text, not a document', 'MZ\u0090\u0000 an executable', '<html><script>alert(1)</script></html>'], pick);
    },
  },
  {
    name: 'bad path id',
    always: false,
    applies: withPathIds,
    apply(d, pick) {
      const name = choose(Object.keys(d.path), pick);
      const value = choose(['not-an-id', '..%2F..%2Fconfig', '%00', '%F0%9F%92%A5', 'x'.repeat(3_000), `Customer:${randomUUID()}`, randomUUID(), `${d.path[name]}%00`, '%25', '%20'], pick);
      d.path[name] = value;
      d.rawPath.add(name);
    },
  },
  {
    name: 'bad query value',
    always: false,
    applies: (d) => queryParams(d).length > 0,
    apply(d, pick) {
      const param = choose(queryParams(d), pick);
      const value = choose(['abc', '-1', '0', '101', '1e999', '', 'true', 'NOT_A_VALUE', '\u0000', 'x'.repeat(2_000), '1.5', '$'], pick);
      d.query = [...d.query.filter(([n]) => n !== param.name), [param.name, value]];
    },
  },
  {
    name: 'forged cursor',
    always: true,
    applies: (d) => queryParams(d).some((p) => p.name === 'cursor'),
    apply(d, pick) {
      const forged = choose(
        [
          'garbage',
          Buffer.from('{"offset":-1}').toString('base64url'),
          Buffer.from('{"id":"Customer:00000000-0000-0000-0000-000000000000","createdAt":"yesterday"}').toString('base64url'),
          Buffer.from(JSON.stringify({ k: 'x'.repeat(100) })).toString('base64url'),
          'eyJ',
          '%%%',
          Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
        ],
        pick,
      );
      d.query = [...d.query.filter(([n]) => n !== 'cursor'), ['cursor', forged]];
    },
  },
  {
    name: 'missing required parameter',
    always: false,
    applies: (d) => d.shape.params.some((p) => p.required && p.in !== 'path'),
    apply(d, pick) {
      const param = choose(d.shape.params.filter((p) => p.required && p.in !== 'path'), pick);
      d.query = d.query.filter(([n]) => n !== param.name);
      delete d.headers[param.name];
    },
  },
  {
    name: 'bad Idempotency-Key',
    always: false,
    applies: (d) => d.shape.params.some((p) => p.name.toLowerCase() === 'idempotency-key'),
    apply(d, pick) {
      d.headers['Idempotency-Key'] = choose(['', 'k'.repeat(256), 'k'.repeat(4_000)], pick);
    },
  },
];
