// The examples the models must carry unchanged, each with the component schema it is an example of:
//   - the named examples (`examples:`) of every request body, response and webhook body, found as
//     contract-tests/static/examples.test.ts finds them; an example a shared response holds
//     (`#/components/responses/...`) or one of `#/components/examples` counts once;
//   - the `examples` of the component schemas;
//   - every value of a discriminated union inside those examples (at any depth: the `accountInfo` of
//     an external account, the `source` of a quote), once through the union's model and once through
//     the variant its discriminator names (a `Customer` with `customerType: BUSINESS` through
//     `BusinessCustomer`); each distinct value once.
// A media type whose schema is not a `$ref` to a component schema, or a component example no body
// uses, is a problem: its examples would belong to no model. So is a union variant without any example.

type Json = Record<string, unknown>;

export interface ExampleCase {
  /** Where the example is, for the report: `createCustomer request application/json "business"`. */
  id: string;
  /** The component schema it is an example of. */
  schema: string;
  value: unknown;
  kind: 'named' | 'schema' | 'union' | 'variant';
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const REF = '#/components/schemas/';

export function exampleCases(bundle: Json): { cases: ExampleCase[]; problems: string[] } {
  const components = (bundle.components ?? {}) as Record<string, Record<string, Json> | undefined>;
  const schemas = components.schemas ?? {};
  const problems: string[] = [];
  const seen = new Set<string>();
  const cases: ExampleCase[] = [];

  const resolve = (node: Json): { node: Json; ref?: string } => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return { node };
    const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (at as Json | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], bundle);
    return { node: (target ?? {}) as Json, ref };
  };

  // `at` says where the media types are; a shared body or response is one set of examples, whichever operation shows it.
  const media = (label: string, content: unknown, at: string) => {
    for (const [type, raw] of Object.entries((content ?? {}) as Record<string, Json>)) {
      const examples = Object.entries((raw.examples ?? {}) as Record<string, Json>);
      if (examples.length === 0) continue;
      const ref = (raw.schema as Json | undefined)?.$ref;
      const schema = typeof ref === 'string' && ref.startsWith(REF) ? ref.slice(REF.length) : undefined;
      if (schema === undefined || schemas[schema] === undefined) {
        problems.push(`${label} ${type}: the schema is not a $ref to a component schema, so its examples belong to no model`);
        continue;
      }
      for (const [name, example] of examples) {
        const { node, ref: exampleRef } = resolve(example);
        const key = exampleRef ?? `${at}/${type}/examples/${name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (!('value' in node)) {
          problems.push(`${label} ${type} example "${name}": no value (an externalValue cannot be checked)`);
          continue;
        }
        cases.push({ id: `${label} ${type} "${name}"`, schema, value: node.value, kind: 'named' });
      }
    }
  };

  for (const root of ['paths', 'webhooks'] as const) {
    for (const [path, item] of Object.entries((bundle[root] ?? {}) as Record<string, Json>)) {
      for (const method of METHODS.filter((m) => item[m] !== undefined)) {
        const operation = item[method] as Json & { operationId?: string; responses?: Record<string, Json> };
        const name = operation.operationId ?? `${method.toUpperCase()} ${path}`;
        if (operation.requestBody !== undefined) {
          const { node, ref } = resolve(operation.requestBody as Json);
          media(ref === undefined ? `${name} request` : ref.replace('#/components/', ''), node.content, ref ?? `${root}${path}/${method}/requestBody`);
        }
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const { node, ref } = resolve(response);
          media(ref === undefined ? `${name} ${status}` : ref.replace('#/components/', ''), node.content, ref ?? `${root}${path}/${method}/${status}`);
        }
      }
    }
  }
  for (const name of Object.keys(components.examples ?? {})) {
    if (!seen.has(`#/components/examples/${name}`)) problems.push(`#/components/examples/${name}: no request or response body uses it, so it belongs to no model`);
  }

  for (const [name, schema] of Object.entries(schemas)) {
    ((schema.examples as unknown[] | undefined) ?? []).forEach((value, i) => cases.push({ id: `schema ${name} examples[${i}]`, schema: name, value, kind: 'schema' }));
  }

  const unionCases = new Map<string, ExampleCase>();
  for (const c of [...cases]) {
    for (const found of unionValues(schemas, c.schema, c.value, '')) {
      const { union, variant, value, at } = found;
      const where = at === '' ? c.id : `${c.id} at ${at}`;
      if (variant === undefined) {
        problems.push(`${where}: its discriminator names no variant of ${union}`);
        continue;
      }
      const key = (schema: string) => `${schema} ${JSON.stringify(value)}`;
      if (at !== '' && !unionCases.has(key(union))) unionCases.set(key(union), { id: `${where} as ${union}`, schema: union, value, kind: 'union' });
      if (!unionCases.has(key(variant))) unionCases.set(key(variant), { id: `${where} as ${variant}`, schema: variant, value, kind: 'variant' });
    }
  }
  cases.push(...unionCases.values());

  // A variant no example shows would go unchecked.
  for (const [union, schema] of Object.entries(schemas)) {
    const mapping = (schema.discriminator as { mapping?: Record<string, string> } | undefined)?.mapping ?? {};
    for (const variant of Object.values(mapping).map((ref) => ref.slice(REF.length))) {
      if (!cases.some((c) => c.schema === variant)) problems.push(`${variant}, a variant of ${union}: no example of it anywhere, so no model of it is checked`);
    }
  }
  return { cases, problems };
}

/** The values of discriminated unions in `value` (an example of `schema`), with the variant each one's discriminator names. */
function unionValues(schemas: Record<string, Json>, schema: string, value: unknown, at: string): { union: string; variant?: string; value: unknown; at: string }[] {
  const found: { union: string; variant?: string; value: unknown; at: string }[] = [];
  const named = (ref: unknown) => (typeof ref === 'string' && ref.startsWith(REF) ? ref.slice(REF.length) : undefined);

  /** The property schemas of an object schema, through its `$ref`s and `allOf` members. */
  const propertiesOf = (node: Json | undefined, seen = new Set<Json>()): Record<string, Json> => {
    if (node === undefined || seen.has(node)) return {};
    seen.add(node);
    const target = named(node.$ref);
    if (target !== undefined) return propertiesOf(schemas[target], seen);
    return Object.assign({}, ...((node.allOf as Json[] | undefined) ?? []).map((m) => propertiesOf(m, seen)), (node.properties ?? {}) as Record<string, Json>);
  };

  const visit = (node: Json | undefined, item: unknown, path: string): void => {
    if (node === undefined || item === null || typeof item !== 'object') return;
    const target = named(node.$ref);
    const resolved = target === undefined ? node : schemas[target];
    if (resolved === undefined) return;
    const discriminator = resolved.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (target !== undefined && discriminator !== undefined && !Array.isArray(item)) {
      const variant = named(discriminator.mapping?.[String((item as Json)[discriminator.propertyName])]);
      found.push({ union: target, variant, value: item, at: path });
      if (variant !== undefined) visit({ $ref: `${REF}${variant}` }, item, path);
      return;
    }
    // A nullable reference (`anyOf: [$ref, {type: 'null'}]`) or an undiscriminated choice: each member that is a reference.
    for (const member of [...((resolved.anyOf as Json[] | undefined) ?? []), ...((resolved.oneOf as Json[] | undefined) ?? [])]) if (member.$ref !== undefined) visit(member, item, path);
    if (Array.isArray(item)) {
      item.forEach((entry, i) => visit(resolved.items as Json | undefined, entry, `${path}/${i}`));
      return;
    }
    const properties = propertiesOf(resolved);
    for (const [key, entry] of Object.entries(item as Json)) visit(properties[key], entry, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };

  visit({ $ref: `${REF}${schema}` }, value, at);
  return found;
}
