// A request the contract allows, generated from the schemas of the operation's parameters and
// body with json-schema-faker (seeded), naming known objects where the pool has some.
import { randomUUID } from 'node:crypto';
import { generateSync } from 'json-schema-faker';
import { spec } from '../support/spec.ts';
import { PDF_BYTES, type Draft } from './draft.ts';
import type { IdPool } from './id-pool.ts';
import type { RequestShape } from './request-shape.ts';

type Json = Record<string, unknown>;

/**
 * The bundle's components with generation hints: most generated currencies and UMA addresses are
 * ones the sandbox knows (still valid under the real schemas), so requests reach past the first
 * check; a few stay arbitrary.
 */
const hinted = {
  ...spec.components,
  schemas: {
    ...spec.components.schemas,
    CurrencyCode: { type: 'string', enum: ['USD', 'USD', 'USD', 'EUR', 'GBP', 'MXN', 'AED', 'BTC', 'XQZ9'] },
    UmaAddress: { type: 'string', enum: ['$success.usd@sandbox.uma.money', '$success.mxn@sandbox.uma.money', '$success.eur@sandbox.uma.money', '$nobody@sandbox.uma.money', '$jane.doe@payments.example.org'] },
  },
};

/** A value valid under `schema` (which may `$ref` the bundle's components). */
export function sample(schema: Json, seed: number): unknown {
  const root = { ...schema, components: hinted } as never;
  try {
    return generateSync(root, { seed, maxDepth: 20, optionalsProbability: 0.5 });
  } catch {
    // json-schema-faker 0.6.3 can fail `minProperties` with `additionalProperties: false` when it
    // leaves optional properties out; with all of them it succeeds.
    return generateSync(root, { seed, maxDepth: 20, alwaysFakeOptionals: true });
  }
}

export function validDraft(shape: RequestShape, pool: IdPool, pick: () => number): Draft {
  const draft: Draft = { shape, path: {}, rawPath: new Set(), query: [], headers: {} };
  for (const p of shape.params) {
    if (p.in === 'path') {
      draft.path[p.name] = String(pool.substitute(sample(p.schema, pick()), pick));
    } else if (p.in === 'query') {
      if (!p.required && pick() % 2 === 0) continue;
      const value = pool.substitute(sample(p.schema, pick()), pick);
      for (const item of Array.isArray(value) ? value : [value]) draft.query.push([p.name, String(item)]);
    } else if (p.name.toLowerCase() === 'idempotency-key') {
      // Fresh keys, so a generated request is never a replay of an earlier one with another body.
      if (pick() % 3 !== 0) draft.headers[p.name] = randomUUID();
    } else if (p.required || pick() % 4 === 0) {
      draft.headers[p.name] = String(pool.substitute(sample(p.schema, pick()), pick));
    }
  }
  if (shape.body !== undefined && (shape.body.required || pick() % 2 === 0)) {
    const value = pool.substitute(sample(shape.body.schema, pick()), pick);
    // The file part is a real PDF: the schema cannot say what a file holds.
    if (shape.body.type === 'multipart/form-data') draft.form = { ...(value as Json), file: PDF_BYTES };
    else draft.json = value;
  }
  return draft;
}
