// Finds the object schemas of an OpenAPI document that a client generator would have to name itself:
// a schema with `properties` that is not a named component schema. The one place an inline object
// is fine is a direct `allOf` member of a named schema (or of such a member): generators merge
// those members into the named type. Anywhere else (a property, array items, a map's values, a
// oneOf/anyOf variant, a request or response body, a parameter, a header) the generator invents a
// name from the surroundings (`Details`, `DatumClass`, a path), so the spec must name it instead.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Keywords whose value is one subschema, and those whose value is a list or a map of subschemas. */
const ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const LIST = ['oneOf', 'anyOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];

function walkSchema(schema: unknown, pointer: string, named: boolean, found: string[]): void {
  if (!isObject(schema)) return;
  if (isObject(schema.properties) && !named) found.push(pointer);
  if (Array.isArray(schema.allOf)) schema.allOf.forEach((member, i) => walkSchema(member, `${pointer}/allOf/${i}`, named, found));
  for (const key of ONE) walkSchema(schema[key], `${pointer}/${key}`, false, found);
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((member, i) => walkSchema(member, `${pointer}/${key}/${i}`, false, found));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isObject(map)) for (const [name, member] of Object.entries(map)) walkSchema(member, `${pointer}/${key}/${escape(name)}`, false, found);
  }
}

/** Outside schemas, every `schema` key (parameters, headers, media types) holds one; examples and extensions hold none. */
function walkDocument(node: unknown, pointer: string, found: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkDocument(item, `${pointer}/${i}`, found));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${escape(key)}`;
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if (key === 'schema') walkSchema(value, at, false, found);
    else if (key === 'schemas' && pointer === '#/components' && isObject(value)) {
      for (const [name, schema] of Object.entries(value)) walkSchema(schema, `${at}/${escape(name)}`, true, found);
    } else walkDocument(value, at, found);
  }
}

/** JSON pointers (`#/...`) of every inline object schema a generator would have to name. */
export function anonymousObjectSchemas(document: Json): string[] {
  const found: string[] = [];
  walkDocument(document, '#', found);
  return found;
}
