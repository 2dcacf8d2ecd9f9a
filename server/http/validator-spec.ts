// The contract as the server's validators read it: the bundle (generated/openapi.json), with each
// discriminated `oneOf` rewritten into the equivalent `if`/`then` per discriminator value. Plain
// `oneOf` validation reports the errors of every branch (one bad routing number gave 28
// contradictory entries); with `if`/`then` only the branch the discriminator selects is checked,
// and an unknown discriminator value is one `enum` error. The published spec is unchanged.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Json = Record<string, unknown>;

export const bundlePath = resolve(import.meta.dirname, '..', '..', 'generated', 'openapi.json');

function rewriteDiscriminated(schema: Json): Json {
  const { oneOf: _branches, discriminator, ...rest } = schema;
  const { propertyName, mapping } = discriminator as { propertyName: string; mapping: Record<string, string> };
  const values = Object.keys(mapping);
  const properties = (rest.properties as Json | undefined) ?? {};
  return {
    ...rest,
    type: 'object',
    required: [...new Set([...((rest.required as string[] | undefined) ?? []), propertyName])],
    properties: { ...properties, [propertyName]: { ...((properties[propertyName] as Json | undefined) ?? {}), enum: values } },
    allOf: [
      ...((rest.allOf as Json[] | undefined) ?? []),
      ...Object.entries(mapping).map(([value, ref]) => ({ if: { properties: { [propertyName]: { const: value } }, required: [propertyName] }, then: { $ref: ref } })),
    ],
  };
}

function transform(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(transform);
  if (node === null || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, transform(v)]));
  const discriminator = object.discriminator as { mapping?: unknown } | undefined;
  return Array.isArray(object.oneOf) && discriminator?.mapping !== undefined ? rewriteDiscriminated(object) : object;
}

/** A fresh copy: express-openapi-validator changes the document it is given. */
export const validatorSpec = (): Json => transform(JSON.parse(readFileSync(bundlePath, 'utf8'))) as Json;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/**
 * The document for express-openapi-validator, which checks requests only (responses are the
 * dispatcher's): every operation's responses are left out, so its start does not prepare the
 * response schemas, time it would spend for nothing (bench/README.md).
 */
export function requestValidatorSpec(spec: Json): Json {
  const copy = structuredClone(spec);
  for (const item of Object.values((copy.paths as Record<string, Json> | undefined) ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (METHODS.has(method)) (operation as Json).responses = { default: { description: 'Checked by the dispatcher against the contract.' } };
    }
  }
  return copy;
}
