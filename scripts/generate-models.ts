// Models of every component schema of generated/openapi.json in Python, Java and Go, made with
// quicktype-core from the schemas as JSON Schema (scripts/models/input.ts prepares them), written to
// artifacts/models/<language>/ (`--out <dir>` elsewhere). It fails when a generated type has a name
// the spec does not give (scripts/models/names.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { modelInput } from './models/input.ts';
import { generate, LANGUAGES, typeNames } from './models/languages.ts';
import { checkNames } from './models/names.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: join('artifacts', 'models') } } });
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const out = resolve(root, values.out);
const bundle = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8')) as Record<string, unknown>;
const input = modelInput(bundle);
const definitions = (input.document.definitions ?? {}) as Record<string, Record<string, unknown>>;
const problems: string[] = [];
const lines: string[] = [];

// Generate, and check every type's name.
for (const language of LANGUAGES) {
  const since = performance.now();
  const files = await generate(language, input.document);
  const dir = join(out, language);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, source] of files) writeFileSync(join(dir, file), source);
  const names = checkNames([...files.values()].flatMap(typeNames[language]), input, definitions);
  problems.push(...names.invented.map((name) => `${language}: type name the spec does not give: ${name}`));
  problems.push(...names.withoutType.filter((s) => s.why === undefined).map((s) => `${language}: no type for the component schema ${s.name}, for no known reason`));
  lines.push(
    `${language}: ${names.types.length} types in ${files.size} file(s) of ${relative(root, dir)}/ (${seconds(since)}); ${names.schemasWithType.length} of ${input.schemaNames.length} component schemas have a type of their name` +
      (names.withoutType.length === 0 ? '' : `; the others: ${names.withoutType.map((s) => `${s.name} (${s.why ?? '?'})`).join(', ')}`),
  );
}
const shared = input.enums.filter((group) => group.members.length > 1);
lines.push(`enums with the same values share one type: ${shared.map((g) => `${g.name} (${g.members.join(', ')})`).join('; ')}`);

console.log(`models from generated/openapi.json with quicktype-core:\n  ${lines.join('\n  ')}`);
if (problems.length > 0) {
  console.error(`\nmodels: ${problems.length} problems\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`models: generated, every type named by the spec (${seconds(started)})`);
