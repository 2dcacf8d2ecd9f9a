// `npm run check:clients`: clients in other languages, made by the generators teams use from
// generated/openapi.json (scripts/clients/clients.ts lists them), each one
//   1. generated into .tmp/clients/<name>/ by a pinned generator installed from its own registry
//      (scripts/clients/tools.ts); a warning that is not a listed limitation of the generator fails it;
//   2. compiled or type-checked under its language's strict settings;
//   3. used by its flow, clients/<name>/ (an ordinary pytest, JUnit or go test suite), on a fresh
//      platform of its own of one sandbox server (in-memory database) started here.
// Prints a table (generator, version, language, generation warnings, compile, live flow), then
// `clients: N of M live flows passed, K of M under an additive change` (each flow runs a second time
// through scripts/clients/additive-proxy.ts: unknown enum values and fields in every answer); exits 1
// if anything failed. clients/README.md says what each
// generator gives and what the spec changed for them.
//   --only <name>   just that client (repeatable); --verbose   every command's output
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createTestPlatform, newCredentials, startServer } from '../contract-tests/support/server-process.ts';
import { startAdditiveProxy, UNKNOWN_ENUM_VALUE } from './clients/additive-proxy.ts';
import { CLIENT_CHECKS, relative, out, type ClientCheck } from './clients/clients.ts';
import { tail, type Ran } from './clients/command.ts';
import { prepareGeneratorJar, preparePython, SPEC, type Prepared } from './clients/tools.ts';

const { values } = parseArgs({ options: { only: { type: 'string', multiple: true }, verbose: { type: 'boolean', default: false } } });
const started = performance.now();
const seconds = (s: number) => `${s.toFixed(1)} s`;
const log = (line: string) => console.log(line);
const checks = values.only === undefined ? CLIENT_CHECKS : CLIENT_CHECKS.filter((c) => values.only?.includes(c.name));
if (checks.length === 0) {
  console.error(`check:clients: no client named ${values.only?.join(', ')}; the clients: ${CLIENT_CHECKS.map((c) => c.name).join(', ')}`);
  process.exit(1);
}

interface Row {
  check: ClientCheck;
  warnings: { known: { message: string; why: string }[]; unknown: string[] };
  generated?: Ran;
  compiled?: Ran[];
  flow?: Ran;
  tests?: { passed: number; total: number };
  /** The same flow through the additive proxy (scripts/clients/additive-proxy.ts). */
  additive?: Ran;
  additiveTests?: { passed: number; total: number };
  rewritten?: { enums: number; fields: number; answers: number; closed: number };
}
const failures: string[] = [];
const fail = (what: string, ran?: Ran) => failures.push(ran === undefined ? what : `${what} (${ran.line}):\n${tail(ran)}`);
const show = (ran: Ran) => {
  if (values.verbose) log(ran.output.trimEnd());
};

// The sandbox every flow runs on, each on a platform of its own (isolated as any two platforms
// are): started while the tools install, instead of a server per flow.
const credentials = newCredentials();
const starting = startServer({ PAYMENTS_CLIENT_ID: credentials.clientId, PAYMENTS_CLIENT_SECRET: credentials.clientSecret, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') });
starting.catch(() => {});
const stopServer = async () => (await starting.catch(() => undefined))?.stop();

// 1. The tools, from their registries (reused when present), the two at once.
const tools: Prepared[] = [];
for (const prepared of await Promise.all([prepareGeneratorJar(), preparePython()])) {
  tools.push(prepared);
  if (prepared.ran !== undefined) show(prepared.ran);
  log(`tools: ${prepared.what}: ${prepared.reused ? 'already there' : prepared.ran?.ok ? `installed (${seconds(prepared.ran.seconds)})` : 'FAILED'}`);
  if (prepared.ran !== undefined && !prepared.ran.ok) {
    console.error(`check:clients: could not install ${prepared.what}:\n${tail(prepared.ran)}`);
    await stopServer();
    process.exit(1);
  }
}

// 2. Each client: generate, compile, then its flow on a platform of its own.
const rows: Row[] = [];
for (const check of checks) {
  const row: Row = { check, warnings: { known: [], unknown: [] } };
  rows.push(row);
  const title = `${check.name} (${check.generator} ${check.version})`;
  row.generated = await check.generate();
  show(row.generated);
  for (const message of check.warnings(row.generated.output)) {
    const known = check.known.find((k) => k.match.test(message));
    if (known !== undefined) row.warnings.known.push({ message, why: known.why });
    else row.warnings.unknown.push(message);
  }
  const warningCount = row.warnings.known.length + row.warnings.unknown.length;
  log(`${title}: generated into ${relative(out(check.name))}/ (${seconds(row.generated.seconds)}), ${warningCount} warnings, ${row.warnings.unknown.length} not known`);
  if (!row.generated.ok) {
    fail(`${check.name}: generation failed`, row.generated);
    continue;
  }
  for (const message of new Set(row.warnings.unknown)) failures.push(`${check.name}: generator warning (fix its cause in spec/, or list it with its reason in scripts/clients/clients.ts): ${message}`);

  row.compiled = await check.compile.commands();
  row.compiled.forEach(show);
  const compiledOk = row.compiled.length > 0 && row.compiled.every((r) => r.ok);
  log(`${title}: ${check.compile.label} ${compiledOk ? 'ok' : 'FAILED'} (${seconds(row.compiled.reduce((sum, r) => sum + r.seconds, 0))})`);
  if (!compiledOk) {
    const failed = row.compiled.find((r) => !r.ok);
    fail(`${check.name}: ${check.compile.label} failed`, failed);
    continue;
  }

  // The flow runs on a platform of its own, then again on a fresh one (its webhook secret is shown
  // once) through a proxy that answers as the next additive release would: unknown enum values, unknown fields.
  for (const additive of [false, true]) {
    let server: Awaited<typeof starting>;
    let credentials: { clientId: string; clientSecret: string };
    try {
      server = await starting;
      // A fresh platform: the flow's own webhook endpoint and secret (shown once), customers and money.
      credentials = await createTestPlatform(server.origin, `${check.name}${additive ? ' (additive change)' : ''}`);
    } catch (error) {
      fail(`${check.name}: the sandbox server did not start or make a platform: ${String(error)}`);
      break;
    }
    if (!additive) {
      row.flow = await check.flow.run({ baseUrl: server.baseUrl, ...credentials });
      show(row.flow);
      row.tests = check.flow.tests(row.flow.output);
      log(`${title}: ${check.flow.label} ${row.flow.ok ? 'passed' : 'FAILED'}, ${row.tests.passed} of ${row.tests.total} tests (${seconds(row.flow.seconds)})`);
      if (!row.flow.ok) fail(`${check.name}: the flow failed`, row.flow);
      continue;
    }
    const proxy = await startAdditiveProxy(server.baseUrl, SPEC, check.unknownEnumValues.survives);
    try {
      row.additive = await check.flow.run({ baseUrl: proxy.baseUrl, ...credentials, additiveChange: check.unknownEnumValues.survives ? UNKNOWN_ENUM_VALUE : undefined });
    } finally {
      await proxy.stop();
    }
    show(row.additive);
    row.additiveTests = check.flow.tests(row.additive.output);
    row.rewritten = { ...proxy.change.counts };
    log(`${title}: under an additive change (${row.rewritten.answers} answers, ${check.unknownEnumValues.survives ? `${row.rewritten.enums} enum values unknown` : 'enum values left known (the generator refuses unknown ones)'}, ${row.rewritten.fields} fields added, ${row.rewritten.closed} closed objects left as they were): ${check.flow.label} ${row.additive.ok ? 'passed' : 'FAILED'}, ${row.additiveTests.passed} of ${row.additiveTests.total} tests (${seconds(row.additive.seconds)})`);
    if (!row.additive.ok) fail(`${check.name}: the flow failed under an additive change`, row.additive);
    if ((check.unknownEnumValues.survives && row.rewritten.enums === 0) || row.rewritten.fields === 0) fail(`${check.name}: the additive proxy changed no enum value or added no field: it proved nothing`);
  }
}
await stopServer();

// 3. The table, the known limitations, what failed, the verdict.
const cell = (text: string) => text.replaceAll('|', '\\|');
const table = [
  '| Generator | Version | Language | Generation warnings | Compile | Live flow | Under an additive change |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(({ check, warnings, generated, compiled, flow, tests, additive, additiveTests }) => {
    // Distinct messages: openapi-generator repeats some a varying number of times.
    const knownKinds = new Set(warnings.known.map((w) => w.message)).size;
    const generation = generated === undefined ? '' : !generated.ok ? 'generation failed' : `${new Set(warnings.unknown).size} to fix${knownKinds > 0 ? `, ${knownKinds} known` : ''}`;
    const compile = compiled === undefined ? 'not run' : `${check.compile.label}: ${compiled.every((r) => r.ok) ? 'ok' : 'FAILED'}`;
    const live = flow === undefined ? 'not run' : `${check.flow.label}: ${flow.ok ? 'passed' : 'FAILED'} (${tests?.passed ?? 0}/${tests?.total ?? 0} tests)`;
    const changed = additive === undefined ? 'not run' : `${check.flow.label}: ${additive.ok ? 'passed' : 'FAILED'} (${additiveTests?.passed ?? 0}/${additiveTests?.total ?? 0} tests)${check.unknownEnumValues.survives ? '' : ', new fields only'}`;
    return `| ${[check.generator, check.version, check.language, generation, compile, live, changed].map(cell).join(' | ')} |`;
  }),
];
log(`\n${table.join('\n')}\n`);
const known = new Map<string, { languages: Set<string>; why: string }>();
for (const row of rows) {
  for (const w of row.warnings.known) {
    const entry = known.get(`${row.check.generator}: ${w.message}`) ?? { languages: new Set<string>(), why: w.why };
    entry.languages.add(row.check.language);
    known.set(`${row.check.generator}: ${w.message}`, entry);
  }
}
const closedEnums = rows.flatMap((r) => (r.check.unknownEnumValues.survives ? [] : [{ check: r.check, why: r.check.unknownEnumValues.why }]));
if (closedEnums.length > 0) {
  log(`Clients that refuse an enum value they do not know (so a new response enum value is breaking: spec/guides/versioning.md, check:breaking):\n${closedEnums.map(({ check, why }) => `  - ${check.generator} ${check.version} (${check.language}): ${why}`).join('\n')}\n`);
}
if (known.size > 0) {
  log(`Known generator warnings, not the spec's to fix:\n${[...known].map(([w, { languages, why }]) => `  - ${w} (${[...languages].join(', ')})\n    ${why}`).join('\n')}\n`);
}
log(`tools: ${tools.map((t) => `${t.what} ${t.reused ? 'reused' : `installed in ${seconds(t.ran?.seconds ?? 0)}`}`).join('; ')}`);
log(`time: ${seconds((performance.now() - started) / 1000)} in all`);
if (failures.length > 0) console.error(`\ncheck:clients: ${failures.length} problems\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
const passed = rows.filter((r) => r.flow?.ok === true).length;
const survived = rows.filter((r) => r.additive?.ok === true).length;
log(`clients: ${passed} of ${checks.length} live flows passed, ${survived} of ${checks.length} under an additive change`);
process.exit(failures.length === 0 && passed === checks.length && survived === checks.length ? 0 : 1);
