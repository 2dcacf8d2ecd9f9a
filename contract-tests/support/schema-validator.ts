// An independent JSON Schema validator for the contract: @hyperjump/json-schema with the OpenAPI
// 3.1 dialect. The server validates with Ajv (inside express-openapi-validator) and Prism with its
// own Ajv, so a schema or instance that only one of them mishandles is caught here.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { setShouldValidateFormat } from '@hyperjump/json-schema/openapi-3-1';
import '@hyperjump/json-schema/formats';
import { BASIC, deserialize, getSchema, interpret, Validation, type CompiledSchema } from '@hyperjump/json-schema/experimental';
import { fromJs } from '@hyperjump/json-schema/instance/experimental';
import { specPath, specUrl } from './spec.ts';

setShouldValidateFormat(true);

export interface SchemaProblem {
  /** Where in the instance, e.g. `#/accountInfo/routingNumber`. */
  instanceLocation: string;
  /** Which schema keyword failed, e.g. `#/components/schemas/Token/properties/id/pattern`. */
  keyword: string;
}

// Compiling a schema of the bundle on its own takes about 100 ms, most of it on the schemas it
// shares with others; every test file compiled the same ones again. So every schema is compiled
// into one AST (a schema already in it is not compiled twice), and that AST is kept in .tmp/ under
// the hash of the bundle and the validator's version: a test file restores it in a few
// milliseconds instead. The global setup writes it (prepareValidators); without it, schemas are
// compiled as they are needed, into the same AST.
const cacheFile = (() => {
  const hash = createHash('sha256')
    .update(readFileSync(specPath))
    .update(specUrl)
    // Its package.json is not exported: read it beside the entry point (v1/index.js).
    .update(readFileSync(resolve(createRequire(import.meta.url).resolve('@hyperjump/json-schema'), '..', '..', 'package.json')))
    .update('formats validated');
  return resolve(import.meta.dirname, '..', '..', '.tmp', `compiled-schemas-${hash.digest('hex').slice(0, 16)}.json`);
})();

type Ast = CompiledSchema['ast'];

// The validator's own serialize/deserialize loses the null prototype of the objects its compile
// collects (the names under `properties`, for one), so a property named `__proto__` or
// `constructor` would then be looked up as a schema: marked here and restored, with RegExps.
const NULL_PROTOTYPE = '$null-prototype';
const REGEXP = '$regexp';

function serialized(ast: Ast): string {
  const plugins = [...ast.plugins].map((plugin) => plugin.id);
  return JSON.stringify({ ...ast, plugins }, (_key, value: unknown) => {
    if (value instanceof RegExp) return { [REGEXP]: { source: value.source, flags: value.flags } };
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === null) return { [NULL_PROTOTYPE]: { ...value } };
    return value;
  });
}

function deserialized(text: string): Ast {
  const parsed = JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const marked = value as Record<string, unknown>;
    if (REGEXP in marked) {
      const { source, flags } = marked[REGEXP] as { source: string; flags: string };
      return new RegExp(source, flags);
    }
    if (NULL_PROTOTYPE in marked) return Object.assign(Object.create(null) as object, marked[NULL_PROTOTYPE]);
    return value;
  }) as Ast & { plugins: string[] };
  // The validator resolves plugin ids to its keywords' plugins.
  const { plugins } = deserialize(JSON.stringify({ schemaUri: '', ast: { metaData: {}, plugins: parsed.plugins } })).ast;
  return Object.assign(parsed, { plugins });
}

function restored(): Ast {
  if (existsSync(cacheFile)) {
    try {
      return deserialized(readFileSync(cacheFile, 'utf8'));
    } catch {
      // A partial or older file: compile afresh.
    }
  }
  return { metaData: {}, plugins: new Set() } as unknown as Ast;
}

const ast = restored();
/** The schema URI of each pointer compiled into the AST. */
const uris = new Map<string, string>();

// One compile at a time: a schema being compiled stands in the AST as a placeholder until it is
// done, and a second compile must not take the placeholder for the schema.
let compiling: Promise<unknown> = Promise.resolve();
// Typed with the parent schema keywords get; the validation keyword does not use it.
const compileInto = (schema: Awaited<ReturnType<typeof getSchema>>) => Validation.compile(schema, ast, schema);

// The bundle as the validator first read it: later schemas are looked up in it, instead of the
// file being read, parsed and checked against the OpenAPI meta-schema again for each (that was
// nine tenths of compiling every schema, 7 s, which a fresh clone's first run spent before any test).
let bundle: Awaited<ReturnType<typeof getSchema>> | undefined;
const schemaAt = async (url: string) => {
  const schema = await getSchema(url, bundle);
  bundle ??= schema;
  return schema;
};

async function schemaUri(pointer: string): Promise<string> {
  const known = uris.get(pointer);
  if (known !== undefined) return known;
  const url = `${specUrl}${pointer}`;
  // Between compiles, a schema in the AST is complete (restored, or compiled by an earlier call).
  const done = compiling.then(async () => (url in ast ? url : compileInto(await schemaAt(url))));
  compiling = done.catch(() => undefined);
  const uri = await done;
  uris.set(pointer, uri);
  return uri;
}

/** Validates `value` against the schema at `pointer` (`#/components/schemas/Token`) of the bundle. */
export async function validateAgainst(pointer: string, value: unknown): Promise<SchemaProblem[]> {
  const output = interpret({ ast, schemaUri: await schemaUri(pointer) }, fromJs(value as never), BASIC);
  if (output.valid) return [];
  return (output.errors ?? []).map((e) => ({
    instanceLocation: e.instanceLocation,
    keyword: (e.absoluteKeywordLocation ?? '').replace(specUrl, ''),
  }));
}

/**
 * Compiles every schema the suite validates against (`pointers`), and keeps the AST for the test
 * files; nothing to do when the bundle has not changed since the last run.
 */
export async function prepareValidators(pointers: Iterable<string>): Promise<void> {
  if (existsSync(cacheFile)) return;
  for (const pointer of pointers) await schemaUri(pointer);
  mkdirSync(dirname(cacheFile), { recursive: true });
  // Written aside and renamed, so no test file reads half of it.
  const partial = `${cacheFile}.${process.pid}.partial`;
  writeFileSync(partial, serialized(ast));
  renameSync(partial, cacheFile);
  // The ASTs of earlier bundles (a megabyte each) are of no more use: a reader that loses one
  // compiles what it needs instead.
  const dir = dirname(cacheFile);
  for (const name of readdirSync(dir)) {
    if (name.startsWith('compiled-schemas-') && name.endsWith('.json') && name !== basename(cacheFile)) rmSync(join(dir, name), { force: true });
  }
}
