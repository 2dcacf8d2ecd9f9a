// Models of every component schema of generated/openapi.json in Python, Java and Go, made with
// quicktype-core from the schemas as JSON Schema (scripts/models/input.ts prepares them), written to
// artifacts/models/<language>/ (`--out <dir>` elsewhere). It fails when a generated type has a name
// the spec does not give (scripts/models/names.ts).
//
// `--check` also proves them, in a scratch folder (os tmpdir, kept on failure or with `--keep`):
//   - Python: `python3 -m py_compile`; Java: `javac -Xlint:all -Werror`; Go: `go build` and `go vet`
//     in a module at `go 1.19`;
//   - every example of the spec (scripts/models/examples.ts) decoded with the Python and the Go model
//     of its schema and encoded again gives back the same JSON (scripts/models/compare.ts), except
//     the losses listed with their reasons in scripts/models/known-losses.ts, which must still
//     happen exactly as listed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { differences, show } from './models/compare.ts';
import { exampleCases, type ExampleCase } from './models/examples.ts';
import { checkGo, GO_VERSION } from './models/go.ts';
import { modelInput } from './models/input.ts';
import { checkJava } from './models/java.ts';
import { isKnownLoss, KNOWN_LOSSES } from './models/known-losses.ts';
import { generate, LANGUAGES, typeNames, type Language } from './models/languages.ts';
import { checkNames, KNOWN_INVENTED } from './models/names.ts';
import { checkPython } from './models/python.ts';
import type { RoundTripCase, RoundTripResults } from './models/round-trip.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join('artifacts', 'models') },
    check: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const out = resolve(root, values.out);
const bundle = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8')) as Record<string, unknown>;
const input = modelInput(bundle);
const definitions = (input.document.definitions ?? {}) as Record<string, Record<string, unknown>>;
const problems: string[] = [];
const lines: string[] = [];

// 1. Generate, and check every type's name.
/** The KNOWN_INVENTED names some language made, in lower case. */
const madeUp = new Set<string>();
for (const language of LANGUAGES) {
  const since = performance.now();
  const files = await generate(language, input.document);
  const dir = join(out, language);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, source] of files) writeFileSync(join(dir, file), source);
  const names = checkNames([...files.values()].flatMap(typeNames[language]), input, definitions);
  problems.push(...names.invented.map((name) => `${language}: type name the spec does not give: ${name}`));
  for (const name of names.known) madeUp.add(name.toLowerCase());
  problems.push(...names.withoutType.filter((s) => s.why === undefined).map((s) => `${language}: no type for the component schema ${s.name}, for no known reason`));
  lines.push(
    `${language}: ${names.types.length} types in ${files.size} file(s) of ${relative(root, dir)}/ (${seconds(since)}); ${names.schemasWithType.length} of ${input.schemaNames.length} component schemas have a type of their name` +
      (names.withoutType.length === 0 ? '' : `; the others: ${names.withoutType.map((s) => `${s.name} (${s.why ?? '?'})`).join(', ')}`),
  );
}
for (const entry of KNOWN_INVENTED) {
  const made = entry.names.filter((n) => madeUp.has(n.toLowerCase()));
  if (made.length === 0) problems.push(`scripts/models/names.ts lists made-up names no language makes any more: ${entry.names.join(', ')}`);
  else lines.push(`made-up names, known (scripts/models/names.ts): ${made.join(', ')}: ${entry.why}`);
}
const shared = input.enums.filter((group) => group.members.length > 1);
lines.push(`enums with the same values share one type: ${shared.map((g) => `${g.name} (${g.members.join(', ')})`).join('; ')}`);

// 2. Compile, and round-trip every example through Python and Go.
if (values.check) {
  const scratch = mkdtempSync(join(tmpdir(), 'models-check-'));
  const { cases, problems: exampleProblems } = exampleCases(bundle);
  problems.push(...exampleProblems);
  const modelOf = (schema: string) => input.aliases.get(schema) ?? schema;
  const roundTripCases: RoundTripCase[] = cases.map((c) => ({ id: c.id, model: modelOf(c.schema), value: c.value }));
  // Every component schema has a model to decode and encode it with, shared ones included.
  const models = [...new Set(input.schemaNames.map(modelOf))];

  let since = performance.now();
  const java = checkJava(join(out, 'java'), scratch);
  problems.push(...java.problems);
  lines.push(`java: javac -Xlint:all -Werror ${java.problems.length === 0 ? 'compiles every model' : 'FAILED'} (${seconds(since)})`);

  since = performance.now();
  const python = checkPython(join(out, 'python'), scratch, roundTripCases, models);
  problems.push(...python.problems);
  lines.push(summary('python', 'py_compile', python, cases, since));

  since = performance.now();
  const go = checkGo(join(out, 'go'), scratch, roundTripCases, models);
  problems.push(...go.problems);
  lines.push(summary('go', `go build, go vet (${go.version ?? 'go missing'}, go.mod at go ${GO_VERSION})`, go, cases, since));

  for (const [language, results] of [['python', python.results], ['go', go.results]] as const) {
    if (results !== undefined) problems.push(...compareAll(language, results, cases));
  }
  lines.push(`known losses (scripts/models/known-losses.ts): ${KNOWN_LOSSES.map((l) => `${l.example} ${l.at}: ${l.loss} (${l.languages.join(', ')})`).join('; ')}`);
  if (problems.length === 0 && !values.keep) rmSync(scratch, { recursive: true, force: true });
  else lines.push(`scratch folder: ${scratch}`);
}

/** The round-trip differences of one language that are not known losses, and the known losses that did not happen. */
function compareAll(language: Language, results: RoundTripResults, cases: ExampleCase[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    const result = results.get(c.id);
    if (result === undefined || 'error' in result) {
      found.push(`${language}: ${c.id} (${c.schema}): the model refused it: ${result === undefined ? 'no result' : result.error.trim()}`);
      continue;
    }
    for (const difference of differences(c.value, result.json)) {
      if (isKnownLoss(language, c.id, difference)) seen.add(`${c.id} ${difference.at}`);
      else found.push(`${language}: ${c.id} (${c.schema}) at ${difference.at || '/'}: expected ${show(difference.expected)}, the model wrote ${show(difference.actual)}`);
    }
  }
  for (const loss of KNOWN_LOSSES.filter((l) => l.languages.includes(language))) {
    if (!seen.has(`${loss.example} ${loss.at}`)) found.push(`${language}: the known loss at ${loss.example} ${loss.at} did not happen: take it out of scripts/models/known-losses.ts`);
  }
  return found;
}

function summary(language: Language, compiler: string, check: { problems: string[]; results?: RoundTripResults }, cases: ExampleCase[], since: number): string {
  const { problems: found, results } = check;
  if (results === undefined) return `${language}: ${compiler} or the round trip FAILED (${seconds(since)})`;
  const count = (kind: ExampleCase['kind']) => cases.filter((c) => c.kind === kind).length;
  const schemas = new Set(cases.map((c) => c.schema)).size;
  const verdict = found.length === 0 ? `pass, a model for each of the ${input.schemaNames.length} component schemas` : 'FAILED';
  return `${language}: ${compiler} ${verdict}; round trip of ${results.size} cases over ${schemas} schemas: ${count('named')} named examples of bodies, ${count('schema')} schema examples, and the union values in them again: ${count('union')} through the union's model inside another example, ${count('variant')} through their variant (${seconds(since)})`;
}

console.log(`models from generated/openapi.json with quicktype-core:\n  ${lines.join('\n  ')}`);
if (problems.length > 0) {
  console.error(`\nmodels: ${problems.length} problems\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`models: ${values.check ? 'generated, compiled and round-tripped' : 'generated'}, every type named by the spec${madeUp.size === 0 ? '' : ` but ${madeUp.size} known made-up names`} (${seconds(started)})`);
