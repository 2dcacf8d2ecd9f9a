// Two things express-openapi-validator 5.6 does at every start that serve this server nothing and
// slow its start (bench/README.md); both are replaced in the validator's own modules:
// - its schema preprocessor resolves each `$ref` by compiling the referenced schema (and all it
//   references) with an ajv instance of its own, only to read the schema object back: a local
//   reference is now looked up in the document instead, which is what that object is;
// - it compiles the OpenAPI meta-schema even when told not to check the document
//   (`validateApiSpec: false`): the compile now waits until a check is asked for.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

type Json = Record<string, unknown>;
interface Preprocessor {
  apiDoc: Json;
  resolvedSchemaCache: Map<string, unknown>;
}
type Resolve = (this: Preprocessor, schema: unknown) => unknown;

/** The value at a local JSON pointer (`#/components/schemas/Name`), or undefined. */
function atPointer(document: Json, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

export function lightenValidatorStart(): void {
  const dist = dirname(require.resolve('express-openapi-validator'));
  const preprocessor = require(join(dist, 'middlewares', 'parsers', 'schema.preprocessor.js')) as { SchemaPreprocessor: { prototype: { resolveSchema: Resolve & { light?: true } } } };
  const original = preprocessor.SchemaPreprocessor.prototype.resolveSchema;
  if (original.light !== true) {
    const light: Resolve & { light?: true } = function (schema) {
      const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return original.call(this, schema);
      if (this.resolvedSchemaCache.has(ref)) return this.resolvedSchemaCache.get(ref);
      const resolved = atPointer(this.apiDoc, ref);
      if (resolved === undefined) return original.call(this, schema);
      this.resolvedSchemaCache.set(ref, resolved);
      return resolved;
    };
    light.light = true;
    preprocessor.SchemaPreprocessor.prototype.resolveSchema = light;
  }

  const specValidator = require(join(dist, 'framework', 'openapi.schema.validator.js')) as { OpenAPISchemaValidator: (new (opts: { validateApiSpec?: boolean }) => { validate(doc: unknown): unknown }) & { light?: true } };
  const Eager = specValidator.OpenAPISchemaValidator;
  if (Eager.light !== true) {
    const Lazy = class {
      readonly #opts: { validateApiSpec?: boolean };
      #eager: InstanceType<typeof Eager> | undefined;
      constructor(opts: { validateApiSpec?: boolean }) {
        this.#opts = opts;
      }
      validate(doc: unknown): unknown {
        this.#eager ??= new Eager(this.#opts);
        return this.#eager.validate(doc);
      }
    };
    specValidator.OpenAPISchemaValidator = Object.assign(Lazy, { light: true as const });
  }
}
