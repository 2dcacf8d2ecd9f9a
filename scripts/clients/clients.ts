// The clients `npm run check:clients` generates, compiles and runs a flow with, one entry each: how
// it is generated from generated/openapi.json, which of its generator's warnings are known
// limitations (with the reason; any other warning fails the check), how it is compiled or
// type-checked, and how its flow (clients/<name>/) runs against a sandbox server.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type Ran } from './command.ts';
import { README, README_COMMAND, readmeOapiCodegenConfig } from './readme-config.ts';
import { JVM_FLAGS, mavenEnv } from '../jvm-flags.ts';
import { CLIENTS, GENERATOR_JAR, goEnv, OPENAPI_GENERATOR_VERSION, OPENAPI_PYTHON_CLIENT_VERSION, pythonEnv, ROOT, SCRATCH, SPEC, venvBin } from './tools.ts';

export interface Sandbox {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Set when the answers come through the additive proxy: the value every enum then has. */
  additiveChange?: string;
}

/** A warning a generator prints that the spec cannot fix, and why. */
export interface KnownWarning {
  match: RegExp;
  why: string;
}

export interface Step {
  /** What the step runs, for the table (`mypy --strict`, `go build, go vet`). */
  label: string;
  commands: () => Promise<Ran[]>;
}

export interface ClientCheck {
  /** The folder of its flow under clients/ and of its code under .tmp/clients/. */
  name: string;
  generator: string;
  version: string;
  language: string;
  /** Generates the client into out(), from scratch. */
  generate: () => Promise<Ran>;
  /** The warnings in the generator's output, one line each. */
  warnings: (output: string) => string[];
  known: KnownWarning[];
  compile: Step;
  /**
   * Whether its client takes an enum value it does not know in an answer (the additive proxy then
   * sends one in every enum); when not, why, for the versioning guide's list of such generators.
   */
  unknownEnumValues: { survives: true } | { survives: false; why: string };
  /** Runs the flow against a sandbox; `tests` reads how many tests passed and ran from its output. */
  flow: { label: string; run: (sandbox: Sandbox) => Promise<Ran>; tests: (output: string) => { passed: number; total: number } };
}

export const out = (name: string) => join(SCRATCH, name);
/** As pinned by clients/go-oapi-codegen/go.mod. */
const OAPI_CODEGEN_VERSION = /^\s*github\.com\/oapi-codegen\/oapi-codegen\/v2 (v\S+)/m.exec(readFileSync(join(CLIENTS, 'go-oapi-codegen', 'go.mod'), 'utf8'))?.[1] ?? '?';
const flowDir = (name: string) => join(CLIENTS, name);
/** A path inside the repository, for the report. */
export const relative = (path: string) => path.slice(ROOT.length + 1);

/** Runs commands one after another, stopping at the first that fails. */
async function sequence(...commands: (() => Promise<Ran>)[]): Promise<Ran[]> {
  const done: Ran[] = [];
  for (const command of commands) {
    const ran = await command();
    done.push(ran);
    if (!ran.ok) break;
  }
  return done;
}

const sandboxEnv = (sandbox: Sandbox) => ({
  PAYMENTS_BASE_URL: sandbox.baseUrl,
  PAYMENTS_CLIENT_ID: sandbox.clientId,
  PAYMENTS_CLIENT_SECRET: sandbox.clientSecret,
  PAYMENTS_ADDITIVE_CHANGE: sandbox.additiveChange ?? '',
});

// --- openapi-generator ---------------------------------------------------------------------------

/** openapi-generator's CLI from the jar, into a fresh folder. */
function openapiGenerator(name: string, generator: string, options: string[]): () => Promise<Ran> {
  return async () => {
    rmSync(out(name), { recursive: true, force: true });
    return run('java', [...JVM_FLAGS, '-jar', GENERATOR_JAR, 'generate', '-g', generator, '-i', SPEC, '-o', out(name), ...options], { cwd: ROOT });
  };
}

/** Its log lines at WARN or ERROR: `[main] WARN  o.o.codegen.DefaultCodegen - <message>`. */
const openapiGeneratorWarnings = (output: string): string[] =>
  output
    .split('\n')
    .map((line) => /^\[[^\]]*\]\s+(?:WARN|ERROR)\s+\S+\s+-\s+(.*)$/.exec(line)?.[1]?.trim())
    .filter((message): message is string => message !== undefined);

const OPENAPI_GENERATOR_KNOWN: KnownWarning[] = [
  { match: /^OpenAPI 3\.1 support is still in beta/, why: 'printed for every OpenAPI 3.1 document' },
  {
    match: /^Failed to get the schema name: null$/,
    why: 'a missing null check of the generator (ModelUtils.getSimpleRef called with no $ref: OpenAPINormalizer on a map whose additionalProperties is an inline schema, the Python codegen on every inline property); no $ref is missing',
  },
];

// --- Python ------------------------------------------------------------------------------------

/**
 * The generated project installed into the virtualenv by pip, as a team installs it (its build
 * backend from PyPI, its dependencies as it declares them); the flow then imports it from there.
 */
function pipInstall(name: string): () => Promise<Ran> {
  return () => run(venvBin('python'), ['-m', 'pip', 'install', '--no-input', '--quiet', '--disable-pip-version-check', '--force-reinstall', '--no-deps', out(name)], { cwd: ROOT, env: pythonEnv('') }).then(async (installed) =>
    installed.ok ? run(venvBin('python'), ['-m', 'pip', 'check', '--disable-pip-version-check'], { cwd: ROOT, env: pythonEnv('') }) : installed);
}

/** mypy with clients/mypy.ini (--strict) over the flow, the shared conftest.py and the generated package. */
function mypy(name: string, packageDir: string): () => Promise<Ran> {
  return () =>
    run(venvBin('python'), ['-m', 'mypy', '--config-file', 'mypy.ini', '--cache-dir', join(SCRATCH, 'mypy-cache'), join(name, 'test_flow.py'), 'conftest.py', packageDir], {
      cwd: CLIENTS,
      env: { ...pythonEnv(out(name)), MYPYPATH: CLIENTS },
    });
}

function pytest(name: string): ClientCheck['flow'] {
  return {
    label: 'pytest',
    // The package as pip installed it, not the generated folder.
    run: (sandbox) => run(venvBin('python'), ['-m', 'pytest', '-q', '-rA', '-p', 'no:cacheprovider', name], { cwd: CLIENTS, env: { ...pythonEnv(''), ...sandboxEnv(sandbox) } }),
    tests: (output) => {
      // The summary, last: `1 failed, 4 passed in 7.62s`.
      const summary = output.split('\n').findLast((line) => /\d+ (passed|failed|errors?)\b.* in [\d.]+s/.test(line)) ?? '';
      const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
      const passed = count('passed');
      return { passed, total: passed + count('failed') + count('errors?') + count('skipped') };
    },
  };
}

// --- Go ------------------------------------------------------------------------------------------

function goTest(name: string): ClientCheck['flow'] {
  return {
    label: 'go test',
    run: (sandbox) => run('go', ['test', '-count=1', '-v', './...'], { cwd: flowDir(name), env: { ...goEnv(), ...sandboxEnv(sandbox) } }),
    tests: (output) => {
      const passed = (output.match(/^--- PASS: /gm) ?? []).length;
      return { passed, total: passed + (output.match(/^--- (FAIL|SKIP): /gm) ?? []).length };
    },
  };
}

/** go build and go vet of the flow's module and of the generated package it imports. */
function goCompile(name: string, generatedPackage: string): Step {
  const env = goEnv();
  return {
    label: 'go build, go vet',
    commands: () =>
      sequence(
        () => run('go', ['build', './...', generatedPackage], { cwd: flowDir(name), env }),
        () => run('go', ['vet', './...', generatedPackage], { cwd: flowDir(name), env }),
      ),
  };
}

// --- Java ----------------------------------------------------------------------------------------

/** Maven on clients/<name>/pom.xml, which compiles the generated sources with the flow's tests. */
const maven = (name: string, goals: string[], env: NodeJS.ProcessEnv = {}) =>
  run('mvn', ['-B', '-f', join(flowDir(name), 'pom.xml'), `-Dgenerated.sources=${join(out(name), 'src', 'main', 'java')}`, `-DargLine=${JVM_FLAGS.join(' ')}`, ...goals], { cwd: flowDir(name), env: mavenEnv({ ...process.env, ...env }) });

function junit(name: string): ClientCheck['flow'] {
  return {
    label: 'JUnit',
    run: (sandbox) => maven(name, ['surefire:test'], sandboxEnv(sandbox)),
    tests: (output) => {
      // Surefire's summary, last: `Tests run: 4, Failures: 0, Errors: 0, Skipped: 0`.
      const summary = [...output.matchAll(/Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$/gm)].at(-1);
      const [total, failed, errors, skipped] = (summary?.slice(1) ?? []).map(Number);
      return { passed: (total ?? 0) - (failed ?? 0) - (errors ?? 0) - (skipped ?? 0), total: total ?? 0 };
    },
  };
}

// --- The clients -----------------------------------------------------------------------------------

export const CLIENT_CHECKS: ClientCheck[] = [
  {
    name: 'python-openapi-generator',
    generator: 'openapi-generator',
    version: OPENAPI_GENERATOR_VERSION,
    language: 'Python',
    // Without the global property the generator also writes the 3.1 `webhooks` as operations of a
    // WebhooksApi, with no type on their parameters (a syntax error); listing what to generate leaves them out.
    generate: openapiGenerator('python-openapi-generator', 'python', [
      '--package-name',
      'payments_client',
      '--global-property',
      'apis,models,supportingFiles,apiDocs=false,modelDocs=false,apiTests=false,modelTests=false',
    ]),
    warnings: openapiGeneratorWarnings,
    known: OPENAPI_GENERATOR_KNOWN,
    unknownEnumValues: {
      survives: false,
      why: 'its models validate every enum (pydantic Enum classes, and a field_validator for an inline enum) and raise ValueError on a value they do not know; enumUnknownDefaultCase adds a member but maps nothing to it, and no option turns the check off',
    },
    // clients/mypy.ini: --strict, but the generated package may have untyped functions (see there).
    compile: { label: 'pip install, mypy --strict (package: untyped defs allowed)', commands: () => sequence(pipInstall('python-openapi-generator'), mypy('python-openapi-generator', join(out('python-openapi-generator'), 'payments_client'))) },
    flow: pytest('python-openapi-generator'),
  },
  {
    name: 'python-openapi-python-client',
    generator: 'openapi-python-client',
    version: OPENAPI_PYTHON_CLIENT_VERSION,
    language: 'Python',
    generate: async () => {
      rmSync(out('python-openapi-python-client'), { recursive: true, force: true });
      // Its post-generation hooks run ruff (check --fix, format) from the virtualenv.
      // clients/openapi-python-client.yaml: the package's version (info.version is a date, not PEP 440).
      // clients/openapi-python-client-templates/: its enums take values a later release adds (its
      // own enums refuse them with ValueError, and it has no option for it).
      return run(
        venvBin('openapi-python-client'),
        ['generate', '--path', SPEC, '--config', join(CLIENTS, 'openapi-python-client.yaml'), '--custom-template-path', join(CLIENTS, 'openapi-python-client-templates'), '--output-path', out('python-openapi-python-client')],
        { cwd: ROOT, env: pythonEnv('') },
      );
    },
    // It prints `Generating <path>` and nothing else when all went well; anything else is a warning.
    warnings: (output) =>
      output
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('Generating ')),
    known: [],
    unknownEnumValues: { survives: true },
    compile: { label: 'pip install, mypy --strict', commands: () => sequence(pipInstall('python-openapi-python-client'), mypy('python-openapi-python-client', join(out('python-openapi-python-client'), 'payments_service_api_client'))) },
    flow: pytest('python-openapi-python-client'),
  },
  {
    name: 'java-openapi-generator',
    generator: 'openapi-generator',
    version: OPENAPI_GENERATOR_VERSION,
    language: 'Java (okhttp-gson)',
    generate: openapiGenerator('java-openapi-generator', 'java', [
      '--library',
      'okhttp-gson',
      '--invoker-package',
      'com.example.payments',
      '--api-package',
      'com.example.payments.api',
      '--model-package',
      'com.example.payments.model',
      // Unset arrays stay null: by default they are empty collections, and a PATCH then sends
      // `currencies: []`, which the API refuses (minItems 1) or would take as "none".
      // disallowAdditionalPropertiesIfNotPresent=false: an
      // object without `additionalProperties` takes fields a later release adds, as JSON Schema
      // says (by default the answer fails to decode: "The field ... is not defined").
      '--additional-properties',
      'containerDefaultToNull=true,disallowAdditionalPropertiesIfNotPresent=false',
      '--global-property',
      'apis,models,supportingFiles,apiDocs=false,modelDocs=false,apiTests=false,modelTests=false',
    ]),
    warnings: openapiGeneratorWarnings,
    unknownEnumValues: {
      survives: false,
      why: 'enumUnknownDefaultCase reads an unknown value as UNKNOWN_DEFAULT_OPEN_API, but then every enum accepts any value, the one-value enums that tell a oneOf\'s variants apart (beneficiaryType) too, and its oneOf validation finds two variants for one answer',
    },
    known: [...OPENAPI_GENERATOR_KNOWN, { match: /^Ignoring complex example on request body$/, why: 'the Java generator puts only simple values into its docs\' examples; the request examples are objects' }],
    compile: { label: 'javac 17 (mvn test-compile)', commands: () => sequence(() => maven('java-openapi-generator', ['-q', 'test-compile'])) },
    flow: junit('java-openapi-generator'),
  },
  {
    name: 'go-openapi-generator',
    generator: 'openapi-generator',
    version: OPENAPI_GENERATOR_VERSION,
    language: 'Go',
    generate: openapiGenerator('go-openapi-generator', 'go', [
      '--package-name',
      'payments',
      // The module example.com/payments/openapi-generator-go, which clients/go-openapi-generator/go.mod replaces with this folder.
      '--git-host',
      'example.com',
      '--git-user-id',
      'payments',
      '--git-repo-id',
      'openapi-generator-go',
      // enumClassPrefix: enum constants carry their type's name (INTERNALACCOUNTTYPE_INTERNAL_FIAT);
      // without it the values several enums share (PENDING, ACTIVE, ...) are declared twice and
      // nothing compiles. useOneOfDiscriminatorLookup: a oneOf answer is decoded as the variant its
      // discriminator names; without it the client tries every variant, and as it does not check a
      // variant's `const`, an INCOMING transaction is both IncomingTransaction and OutgoingTransaction: an error.
      // enumUnknownDefaultCase: a named enum reads a value a later release adds as its
      // UNKNOWN_DEFAULT_OPEN_API constant (by default the answer fails: "... is not a valid KycStatus").
      // disallowAdditionalPropertiesIfNotPresent=false: an object without `additionalProperties`
      // takes a field a later release adds (by default: "json: unknown field").
      '--additional-properties',
      'enumClassPrefix=true,useOneOfDiscriminatorLookup=true,enumUnknownDefaultCase=true,disallowAdditionalPropertiesIfNotPresent=false',
      '--global-property',
      'apis,models,supportingFiles,apiDocs=false,modelDocs=false,apiTests=false,modelTests=false',
    ]),
    warnings: openapiGeneratorWarnings,
    unknownEnumValues: { survives: true },
    known: [
      ...OPENAPI_GENERATOR_KNOWN,
      {
        match: /^type \(reserved word\) cannot be used as (parameter|model) name\. Renamed to (type_|model_type)$/,
        why: "the API's `type` query parameter (GET /transactions, /customers/internal-accounts and four more) is a Go keyword: its setter is Type_(), the wire name stays `type`; the generator checks the name twice",
      },
    ],
    compile: goCompile('go-openapi-generator', 'example.com/payments/openapi-generator-go'),
    flow: goTest('go-openapi-generator'),
  },
  {
    name: 'go-oapi-codegen',
    generator: 'oapi-codegen',
    version: OAPI_CODEGEN_VERSION,
    language: 'Go',
    generate: async () => {
      // oapi-codegen writes one file of a package; the module around it (its go.mod, which
      // clients/go-oapi-codegen/go.mod replaces with this folder) is the check's to give.
      rmSync(out('go-oapi-codegen'), { recursive: true, force: true });
      mkdirSync(out('go-oapi-codegen'), { recursive: true });
      writeFileSync(join(out('go-oapi-codegen'), 'go.mod'), 'module example.com/payments/oapi-codegen\n\ngo 1.24\n');
      // The configuration and command of clients/README.md, as written there (readme-config.ts).
      const config = readmeOapiCodegenConfig();
      if (!config.ok) return { ok: false, output: config.problem, seconds: 0, line: `read ${relative(README)}` };
      const configFile = join(out('go-oapi-codegen'), 'oapi-codegen.yaml');
      writeFileSync(configFile, config.yaml);
      const paths: Record<string, string> = { 'oapi-codegen.yaml': configFile, 'payments.gen.go': join(out('go-oapi-codegen'), 'payments.gen.go'), $SPEC: SPEC };
      // `go tool oapi-codegen -config ... -o ... $SPEC`, with the files of the scratch folder.
      const args = README_COMMAND.split(' ').slice(2).map((arg) => paths[arg] ?? arg);
      // The generator is a `tool` of the flow's module: built from the version its go.mod pins.
      return run('go', ['tool', ...args], { cwd: flowDir('go-oapi-codegen'), env: goEnv() });
    },
    // It prints nothing when all went well (the first run also shows go downloading the modules).
    warnings: (output) =>
      output
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('go: downloading ')),
    known: [],
    unknownEnumValues: { survives: true },
    compile: goCompile('go-oapi-codegen', 'example.com/payments/oapi-codegen'),
    flow: goTest('go-oapi-codegen'),
  },
];

