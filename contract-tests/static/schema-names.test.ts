// Every object schema of the bundle has a name a client generator can use: no inline object with
// `properties` outside the named component schemas, except the `allOf` members that generators
// merge into their named schema (the rule and its reasons are in ../support/anonymous-objects.ts).
// Inline request bodies and parameters count too: a generator has to name their types as well.
// The fixture holds one inline object of each kind, so the finder proves it can see them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anonymousObjectSchemas } from '../support/anonymous-objects.ts';
import { spec } from '../support/spec.ts';

const fixture = parse(readFileSync(join(import.meta.dirname, 'fixtures', 'schema-names', 'anonymous-objects.yaml'), 'utf8')) as Record<string, unknown>;

describe('schema names', () => {
  it('the bundle has no inline object schema a generator would have to name', () => {
    expect(anonymousObjectSchemas(spec)).toEqual([]);
  });

  it('the finder reports every kind of anonymous object in the fixture, and nothing else', () => {
    expect(anonymousObjectSchemas(fixture).sort()).toEqual(
      [
        '#/paths/~1widgets/parameters/0/schema',
        '#/paths/~1widgets/post/requestBody/content/application~1json/schema',
        '#/paths/~1widgets/post/responses/200/headers/X-Page/schema',
        '#/components/schemas/Widget/properties/size',
        '#/components/schemas/Widget/properties/parts/items',
        '#/components/schemas/Shape/oneOf/1',
        '#/components/schemas/Shape/anyOf/0',
      ].sort(),
    );
  });

  it('would have caught the two objects the spec used to leave anonymous', () => {
    const before = structuredClone(spec) as unknown as { components: { schemas: Record<string, { allOf: Record<string, unknown>[] }> } };
    const inline = (name: string) => ({ ...spec.components.schemas?.[name] });
    const member = (name: string) => before.components.schemas[name]?.allOf[1] as { properties: Record<string, unknown> };
    member('Error400').properties.details = inline('Error400Details');
    member('TestWebhookEvent').properties.data = inline('TestWebhookEventData');
    expect(anonymousObjectSchemas(before)).toEqual([
      '#/components/schemas/Error400/allOf/1/properties/details',
      '#/components/schemas/TestWebhookEvent/allOf/1/properties/data',
    ]);
  });
});
