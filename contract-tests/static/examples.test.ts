// Every example in the contract (request bodies, responses, webhooks, parameters and schema-level
// `examples`) validates against its schema, checked by the independent validator.
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../support/schema-validator.ts';
import { deref, operations, spec, webhookOperations, type SpecOperation } from '../support/spec.ts';

type Json = Record<string, unknown>;
// A JSON pointer segment, percent-encoded for use in a URI fragment (paths contain `{` and `}`).
const escape = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

interface ExampleCase {
  name: string;
  pointer: string;
  value: unknown;
}

function mediaCases(where: string, content: Json | undefined): ExampleCase[] {
  return Object.entries(content ?? {}).flatMap(([type, raw]) => {
    const media = raw as Json;
    const schema = media.schema as Json | undefined;
    if (typeof schema?.$ref !== 'string') return [];
    return Object.entries((media.examples ?? {}) as Json).map(([exampleName, example]) => ({
      name: `${where} ${type} example "${exampleName}"`,
      pointer: schema.$ref as string,
      value: deref<Json>(example).value,
    }));
  });
}

function operationCases(item: SpecOperation, root: 'paths' | 'webhooks'): ExampleCase[] {
  const label = `${item.operation.operationId}`;
  const cases = [...mediaCases(`${label} request`, deref<Json>(item.operation.requestBody)?.content as Json | undefined)];
  for (const [status, response] of Object.entries(item.operation.responses)) {
    cases.push(...mediaCases(`${label} ${status}`, deref<Json>(response).content as Json | undefined));
  }
  const params = [
    ...((item.pathItem.parameters as Json[] | undefined) ?? []).map((p, i) => ({ p, at: `#/${root}/${escape(item.path)}/parameters/${i}` })),
    ...(item.operation.parameters ?? []).map((p, i) => ({ p, at: `#/${root}/${escape(item.path)}/${item.method}/parameters/${i}` })),
  ];
  for (const { p, at } of params) {
    const param = deref<Json>(p);
    if (param.example === undefined) continue;
    const pointer = typeof p.$ref === 'string' ? `${p.$ref as string}/schema` : `${at}/schema`;
    cases.push({ name: `${label} parameter ${param.name as string}`, pointer, value: param.example });
  }
  return cases;
}

const schemaCases: ExampleCase[] = Object.entries(spec.components.schemas ?? {}).flatMap(([name, schema]) =>
  ((schema.examples as unknown[] | undefined) ?? []).map((value, i) => ({
    name: `schema ${name} examples[${i}]`,
    pointer: `#/components/schemas/${escape(name)}`,
    value,
  })),
);

const cases = [
  ...operations.flatMap((o) => operationCases(o, 'paths')),
  ...webhookOperations.flatMap((o) => operationCases(o, 'webhooks')),
  ...schemaCases,
];

describe('examples', () => {
  it('exist for every operation', () => {
    expect(cases.length).toBeGreaterThan(operations.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s is valid', async (_name, c) => {
    expect(await validateAgainst(c.pointer, c.value)).toEqual([]);
  });
});
