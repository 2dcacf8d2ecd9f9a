// A second, independent client generator over the bundle: @hey-api/openapi-ts (types, SDK, its
// bundled fetch client) writes a TypeScript client from generated/openapi.json into a scratch folder
// (os tmpdir), and `tsc --strict` compiles it with a small typed use. It fails on
//   - any warning or error the generator logs;
//   - any exported type name the spec did not give: every name must be a component (schema or
//     parameter), the `Writable` variant hey-api makes of a schema with readOnly properties, or an
//     operation's / webhook's name with hey-api's fixed suffixes. Names invented from paths or
//     de-duplicated with a number (`Customer2`) mean a schema is anonymous or names clash;
//   - SDK functions that are not exactly the spec's operationIds;
//   - any compile error.
// `--keep` leaves the scratch folder for a look.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';

type Json = Record<string, unknown>;

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false }, input: { type: 'string', default: join(root, 'generated', 'openapi.json') } } });
const started = performance.now();
const spec = JSON.parse(readFileSync(values.input, 'utf8')) as Json;
const out = mkdtempSync(join(tmpdir(), 'second-generator-'));
const problems: string[] = [];

// 1. Generate, recording everything the generator warns about.
const warnings: string[] = [];
const original = { warn: console.warn, error: console.error };
const record = (...args: unknown[]) => warnings.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
console.warn = record;
console.error = record;
try {
  await createClient({
    input: values.input,
    output: { path: join(out, 'client') },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'warn', file: false },
  });
} catch (error) {
  problems.push(`the generator failed: ${String(error)}`);
} finally {
  Object.assign(console, original);
}
// ANSI colour codes out, for a readable report.
problems.push(...warnings.map((w) => `generator warning: ${w.replace(/\u001b\[[0-9;]*m/g, '')}`));

// 2. Every exported name comes from the spec.
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const operationIds = (items: unknown) =>
  Object.values((items ?? {}) as Record<string, Json>).flatMap((item) => METHODS.flatMap((m) => (item[m] ? [String((item[m] as Json).operationId)] : [])));
const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const components = (spec.components ?? {}) as Record<string, Record<string, unknown> | undefined>;
const schemaNames = Object.keys(components.schemas ?? {});
const allowed = new Set<string>([
  'ClientOptions', // the generator's own (base URL type)
  'Webhooks', // union of the webhook requests
  ...schemaNames,
  ...schemaNames.map((n) => `${n}Writable`),
  ...Object.keys(components.parameters ?? {}),
  ...operationIds(spec.paths).flatMap((id) => ['Data', 'Errors', 'Error', 'Responses', 'Response'].map((s) => pascal(id) + s)),
  ...operationIds(spec.webhooks).flatMap((id) => ['WebhookPayload', 'WebhookRequest'].map((s) => pascal(id) + s)),
]);
let typeNames: string[] = [];
try {
  const types = readFileSync(join(out, 'client', 'types.gen.ts'), 'utf8');
  typeNames = [...types.matchAll(/^export (?:type|interface|enum|const) (\w+)/gm)].map((m) => m[1]!);
  const invented = typeNames.filter((n) => !allowed.has(n));
  for (const name of invented) {
    const near = schemaNames.find((s) => name.startsWith(s) && /^\d+$/.test(name.slice(s.length)));
    problems.push(`type name the spec does not give: ${name}${near ? ` (a second "${near}": names clash)` : ' (an anonymous schema named from its place, or a clash)'}`);
  }
  const sdk = readFileSync(join(out, 'client', 'sdk.gen.ts'), 'utf8');
  const functions = new Set([...sdk.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!));
  const ids = new Set(operationIds(spec.paths));
  for (const f of functions) if (!ids.has(f)) problems.push(`SDK function that is no operationId: ${f}`);
  for (const id of ids) if (!functions.has(id)) problems.push(`operationId without an SDK function of that name: ${id}`);
} catch (error) {
  problems.push(`generated files missing: ${String(error)}`);
}

// 3. Compile it, strictly, with a typed use of the SDK.
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module', private: true }));
writeFileSync(
  join(out, 'use.ts'),
  `import { createClient } from './client/client/index.js';
import { listTokens, createToken } from './client/index.js';
import type { Token, TokenCreateRequest } from './client/index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9/2025-10-13', fetch: async () => new Response('{"data":[],"hasMore":false,"totalCount":0}') });
const body: TokenCreateRequest = { name: 'ci', permissions: ['VIEW'] };
export async function use(): Promise<Token[] | undefined> {
  await createToken({ client, body, throwOnError: false });
  const { data } = await listTokens({ client, query: { limit: 10 } });
  // @ts-expect-error an unknown permission is not a Permission
  const wrong: TokenCreateRequest = { name: 'x', permissions: ['ROOT'] };
  void wrong;
  return data?.data;
}
`,
);
writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
    include: ['client', 'use.ts'],
  }),
);
try {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', out], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
} catch (error) {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  const lines = `${stdout}${stderr}`.trim().split('\n');
  problems.push(`tsc --strict: ${lines.filter((l) => /error TS/.test(l)).length} errors`, ...lines.slice(0, 40).map((l) => `  ${l}`));
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (problems.length > 0) {
  console.error(`second generator (@hey-api/openapi-ts) on ${values.input}: ${problems.length} problems (scratch kept: ${out})\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
if (!values.keep) rmSync(out, { recursive: true, force: true });
console.log(`second generator (@hey-api/openapi-ts): ${typeNames.length} types, all named by the spec; SDK = ${operationIds(spec.paths).length} operationIds; compiles with tsc --strict (${seconds} s)${values.keep ? `; kept ${out}` : ''}`);
