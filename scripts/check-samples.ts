// `npm run check:samples`: runs the code samples of every operation (`x-codeSamples` of
// generated/openapi.json, made by scripts/code-samples.ts) against a sandbox server it starts, and
// checks that each answered its operation's documented success status (a 2xx of its responses).
// Each language runs every operation, in one order (creations, reads, changes, actions,
// deletions), on a platform of its own; before a sample runs, each example id in it becomes the
// real id it stands for: the one at its place in an earlier answer of the same language (a list's
// items paired by what they hold), else the latest of its kind, as a reader would paste it (Go's are
// rewritten in its requests, its source compiled as written; scripts/samples/identifiers.ts).
// What an example names that no sample makes, and the state an action needs, is made first
// through the public API with the kit's fixtures (scripts/samples/given.ts).
// Before running: the TypeScript samples compiled (tsc), the Python ones type-checked (mypy
// --strict) against openapi-python-client's package, the Go ones built and vetted against
// oapi-codegen's client, both clients made by check:clients' own steps. Prints one line per sample
// that did not answer as documented, a line per language, and last `samples: N of M ran and
// answered as documented`. Exits 1 when a sample did not compile, did not run, or did not answer
// as documented.
//   --lang <name>   only that language (repeatable: curl, TypeScript, Python, Go)
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { collectIds } from '../contract-tests/support/collect-ids.ts';
import { createTestPlatform, newCredentials, startServer } from '../contract-tests/support/server-process.ts';
import type { CodeSample } from './code-samples.ts';
import { idsIn, mapIdentifiers, substitute, typedIdsIn } from './samples/identifiers.ts';
import { GIVEN, MADE_WHEN_NAMED, type Stands } from './samples/given.ts';
import { Http } from '../contract-tests/kit/http.ts';
import { World } from '../contract-tests/kit/world.ts';
import { CLIENT_CHECKS } from './clients/clients.ts';
import { tail } from './clients/command.ts';
import { CLIENTS, preparePython, pythonEnv, SCRATCH, venvBin } from './clients/tools.ts';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const scratch = join(root, '.tmp', 'samples');
const { values } = parseArgs({ options: { lang: { type: 'string', multiple: true } } });
const started = performance.now();

type Media = { examples?: Record<string, { value?: unknown }> };
interface Operation { operationId: string; method: string; path: string; successes: number[]; samples: CodeSample[]; answers: unknown[] }
const bundle = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, Media> }>; 'x-codeSamples'?: CodeSample[] }>>;
};
const operations: Operation[] = Object.entries(bundle.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => method !== 'parameters')
    .map(([method, op]) => {
      const successes = Object.keys(op.responses).map(Number).filter((s) => s >= 200 && s < 300);
      // The documented answers' examples: the ids in them are the ones the other samples name.
      const answers = successes.flatMap((s) => Object.values(op.responses[String(s)]?.content ?? {}).flatMap((m) => Object.values(m.examples ?? {}).map((e) => e.value)));
      return { operationId: op.operationId, method: method.toUpperCase(), path, successes, samples: op['x-codeSamples'] ?? [], answers };
    }),
);
// Creations first, so that reads, changes and actions find what they name; simulations act on
// what exists; an agent's own operations need its access token (redeemed among the actions);
// deletions last.
/** Operations whose answer holds ids of sample data (the sandbox's sample webhook), not of the platform's objects. */
const ANSWERS_WITH_SAMPLE_IDS = new Set(['simulateWebhookEvent']);
// Pausing the agent (updateAgent's example) comes after the agent's own operations, which a
// paused agent may not call.
// The wallet's signed actions (and its passkey, added by a signed retry) come once
// verifyAuthCredential opened a session to sign with.
const SIGNED = ['challengeAuthCredential', 'updateInternalAccount', 'exportInternalAccount'];
const phase = (op: Operation) =>
  op.method === 'DELETE' ? 3 : op.operationId === 'updateAgent' ? 2.5 : op.path.startsWith('/agents/me') ? 2 : op.path.startsWith('/sandbox/') ? 1 : SIGNED.includes(op.operationId) ? 0.5 : 0;
// Deletions in the reverse of the spec's order: what was made last (a customer's documents) goes
// before what it belongs to (the customer).
const ordered = operations.map((op, i) => ({ op, i })).sort((a, b) => phase(a.op) - phase(b.op) || (phase(a.op) === 3 ? b.i - a.i : a.i - b.i)).map(({ op }) => op);

interface Answer { status: number; body: unknown }
interface Language { name: string; run: (source: string, env: NodeJS.ProcessEnv, index: number, op: Operation, ids: Record<string, string>) => Promise<Answer> }

const exec = promisify(execFile);
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

mkdirSync(scratch, { recursive: true });
writeFileSync(join(scratch, 'passport.pdf'), `%PDF-1.7\n${'sample'.padEnd(600, ' ')}`);

const LANGUAGES: Language[] = [
  {
    name: 'curl',
    // As written, with curl also writing the status on a line of its own.
    async run(source, env) {
      const { stdout } = await exec('bash', ['-c', `curl() { command curl -s -w '\\n%{http_code}' "$@"; }\n${source}`], { env, cwd: scratch, maxBuffer: 16 << 20 });
      const cut = stdout.lastIndexOf('\n');
      return { status: Number(stdout.slice(cut + 1)), body: parse(stdout.slice(0, cut)) };
    },
  },
  {
    name: 'TypeScript',
    // Imported in this process: the sample's `console.log(status, body)` is what it answered.
    async run(source, env, index) {
      const file = join(scratch, 'ts', `${index}.ts`);
      mkdirSync(join(scratch, 'ts'), { recursive: true });
      writeFileSync(file, source);
      const saved = { env: { ...process.env }, log: console.log, cwd: process.cwd() };
      let answer: Answer = { status: 0, body: 'the sample printed nothing' };
      Object.assign(process.env, env);
      console.log = (status: number, body: unknown) => {
        answer = { status, body };
      };
      process.chdir(scratch);
      try {
        await import(pathToFileURL(file).href);
      } finally {
        console.log = saved.log;
        process.env = saved.env;
        process.chdir(saved.cwd);
      }
      return answer;
    },
  },
];

// The TypeScript samples as written, compiled first (strict, as the repository's own code): a
// sample that does not compile fails the check even if it runs.
const compileDir = join(scratch, 'compile');
rmSync(compileDir, { recursive: true, force: true });
mkdirSync(compileDir, { recursive: true });
for (const op of operations) {
  const sample = op.samples.find((s) => s.lang === 'TypeScript');
  if (sample !== undefined) writeFileSync(join(compileDir, `${op.operationId}.ts`), sample.source);
}
writeFileSync(join(compileDir, 'tsconfig.json'), JSON.stringify({ extends: '../../../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '.' }, include: ['*.ts'], exclude: [] }));
const compiled = await exec(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(compileDir, 'tsconfig.json')], { cwd: root }).then(
  () => ({ ok: true, output: '' }),
  (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
);
console.log(`TypeScript: ${operations.length} samples ${compiled.ok ? "compile (tsc, strict)" : `as written: not all compile:\n${compiled.output}`}`);

// Python: openapi-python-client's client generated, pip-installed and checked as check:clients does
// (scripts/clients/), the samples type-checked as written with mypy --strict (clients/mypy.ini), then
// run one after the other by one Python process (scripts/samples/run_python_samples.py).
const compileFailures: string[] = compiled.ok ? [] : ['TypeScript: not every sample compiles (above)'];
async function preparePythonSamples(): Promise<Language | undefined> {
  const check = CLIENT_CHECKS.find((c) => c.name === 'python-openapi-python-client');
  if (check === undefined) throw new Error('check:samples: scripts/clients/clients.ts has no python-openapi-python-client');
  for (const step of [() => preparePython().then((p) => p.ran ?? { ok: true, output: '', seconds: 0, line: 'virtualenv reused' }), () => check.generate(), async () => {
    const ran = await check.compile.commands();
    return ran.find((r) => !r.ok) ?? ran[ran.length - 1] ?? { ok: false, output: 'nothing ran', seconds: 0, line: 'compile' };
  }]) {
    const ran = await step();
    if (!ran.ok) {
      compileFailures.push(`Python: ${ran.line} failed:\n${tail(ran)}`);
      return undefined;
    }
  }
  const dir = join(scratch, 'python');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const op of operations) {
    const sample = op.samples.find((c) => c.lang === 'Python');
    if (sample !== undefined) writeFileSync(join(dir, `${op.operationId}.py`), `${sample.source}\n`);
  }
  const typed = await exec(venvBin('python'), ['-m', 'mypy', '--config-file', join(CLIENTS, 'mypy.ini'), '--cache-dir', join(SCRATCH, 'mypy-cache'), '--explicit-package-bases', dir], { cwd: dir, env: pythonEnv(''), maxBuffer: 16 << 20 }).then(
    () => ({ ok: true, output: '' }),
    (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
  );
  console.log(`Python: ${operations.length} samples ${typed.ok ? 'type-check (mypy --strict)' : `as written: not all type-check:\n${typed.output.split('\n').slice(0, 60).join('\n')}`}`);
  if (!typed.ok) compileFailures.push('Python: not every sample type-checks (above)');
  const child = spawn(venvBin('python'), [join(root, 'scripts', 'samples', 'run_python_samples.py')], { cwd: scratch, env: pythonEnv(''), stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  process.on('exit', () => child.kill());
  return {
    name: 'Python',
    async run(source, env, index) {
      const own = Object.fromEntries(['PAYMENTS_BASE_URL', 'PAYMENTS_CLIENT_ID', 'PAYMENTS_CLIENT_SECRET', 'AGENT_ACCESS_TOKEN'].map((k) => [k, env[k] ?? '']));
      child.stdin.write(`${JSON.stringify({ name: `sample-${index}.py`, source, env: own })}\n`);
      const next = await lines.next();
      if (next.done === true) throw new Error('the Python process ended');
      const answer = JSON.parse(next.value) as { status: number; body: string };
      return { status: answer.status, body: parse(answer.body) };
    },
  };
}
// Go: oapi-codegen's client generated and built as check:clients does, each sample's main made a
// function of one program (scripts/samples/go_harness.go.txt) built and vetted once, which runs
// them as stdin names them; the ids in its requests are rewritten on the way out.
async function prepareGoSamples(): Promise<Language | undefined> {
  const check = CLIENT_CHECKS.find((c) => c.name === 'go-oapi-codegen');
  if (check === undefined) throw new Error('check:samples: scripts/clients/clients.ts has no go-oapi-codegen');
  for (const step of [() => check.generate(), async () => {
    const ran = await check.compile.commands();
    return ran.find((r) => !r.ok) ?? ran[ran.length - 1] ?? { ok: false, output: 'nothing ran', seconds: 0, line: 'compile' };
  }]) {
    const ran = await step();
    if (!ran.ok) {
      compileFailures.push(`Go: ${ran.line} failed:\n${tail(ran)}`);
      return undefined;
    }
  }
  const dir = join(scratch, 'go');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const flowMod = readFileSync(join(CLIENTS, 'go-oapi-codegen', 'go.mod'), 'utf8');
  writeFileSync(join(dir, 'go.mod'), flowMod.replace(/^module .*$/m, 'module example.com/payments/samples').replace('=> ../../.tmp/clients/go-oapi-codegen', `=> ${join(SCRATCH, 'go-oapi-codegen')}`).replace(/^tool .*$/m, ''));
  writeFileSync(join(dir, 'go.sum'), readFileSync(join(CLIENTS, 'go-oapi-codegen', 'go.sum')));
  writeFileSync(join(dir, 'main.go'), readFileSync(join(root, 'scripts', 'samples', 'go_harness.go.txt'), 'utf8'));
  const names: string[] = [];
  for (const op of operations) {
    const sample = op.samples.find((c) => c.lang === 'Go');
    if (sample === undefined) continue;
    const source = sample.source.replace(/\nfunc must\(err error\) \{\n\tif err != nil \{\n\t\tpanic\(err\)\n\t\}\n\}\n/, '\n').replace('\nfunc main() {', `\nfunc sample_${op.operationId}() {`);
    writeFileSync(join(dir, `sample_${op.operationId}.go`), source);
    names.push(op.operationId);
  }
  writeFileSync(join(dir, 'samples.go'), `package main\n\nvar samples = map[string]func(){\n${names.map((n) => `\t${JSON.stringify(n)}: sample_${n},`).join('\n')}\n}\n`);
  const env = { ...process.env, GOWORK: 'off', GO111MODULE: 'on', GOFLAGS: '-mod=mod' };
  for (const args of [['build', '-o', 'samples', '.'], ['vet', '.']]) {
    const built = await exec('go', args, { cwd: dir, env, maxBuffer: 16 << 20 }).then(
      () => ({ ok: true, output: '' }),
      (error: { stderr?: string }) => ({ ok: false, output: error.stderr ?? String(error) }),
    );
    if (!built.ok) {
      console.log(`Go: go ${args[0]} of the samples failed:\n${built.output.split('\n').slice(0, 60).join('\n')}`);
      compileFailures.push(`Go: not every sample compiles (go ${args[0]}, above)`);
      return undefined;
    }
  }
  console.log(`Go: ${names.length} samples compile (go build, go vet)`);
  const child = spawn(join(dir, 'samples'), [], { cwd: scratch, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  process.on('exit', () => child.kill());
  return {
    name: 'Go',
    async run(_source, env, _index, op, ids) {
      const own = Object.fromEntries(['PAYMENTS_BASE_URL', 'PAYMENTS_CLIENT_ID', 'PAYMENTS_CLIENT_SECRET', 'AGENT_ACCESS_TOKEN'].map((k) => [k, env[k] ?? '']));
      child.stdin.write(`${JSON.stringify({ name: op.operationId, env: own, ids })}\n`);
      for (;;) {
        const next = await lines.next();
        if (next.done === true) throw new Error('the Go samples program ended');
        if (!next.value.startsWith('@@sample@@ ')) continue;
        const answer = JSON.parse(next.value.slice('@@sample@@ '.length)) as { status: number; body: string };
        return { status: answer.status, body: parse(answer.body) };
      }
    },
  };
}
const wanted = (name: string) => values.lang === undefined || values.lang.includes(name);
if (wanted('Python')) {
  const python = await preparePythonSamples();
  if (python !== undefined) LANGUAGES.push(python);
}
if (wanted('Go')) {
  const go = await prepareGoSamples();
  if (go !== undefined) LANGUAGES.push(go);
}
const languages = LANGUAGES.filter((l) => wanted(l.name));
rmSync(join(scratch, 'ts'), { recursive: true, force: true });
const credentials = newCredentials();
const server = await startServer({ PAYMENTS_CLIENT_ID: credentials.clientId, PAYMENTS_CLIENT_SECRET: credentials.clientSecret, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') });
const results: { language: string; ran: number; passed: number; failed: string[] }[] = [];
let index = 0;
try {
  for (const language of languages) {
    // A platform of the language's own: one language's deletions do not take another's objects.
    const token = await createTestPlatform(server.origin, `${language.name} samples`);
    const ids = new Map<string, string>();
    const identifiers = new Map<string, string>();
    const world = new World({ http: new Http({ baseUrl: server.baseUrl, credentials: token, timeoutMs: 30_000 }), prefix: `samples-${language.name.toLowerCase()}`, otherPlatform: undefined, outcomeWaitMs: 10_000 });
    const known = (example: string) => identifiers.get(example);
    const result = { language: language.name, ran: 0, passed: 0, failed: [] as string[] };
    results.push(result);
    for (const op of ordered) {
      const sample = op.samples.find((s) => s.lang === language.name);
      if (sample === undefined) {
        result.failed.push(`${op.operationId}: no ${language.name} sample`);
        continue;
      }
      // The objects and the state the sample names, made first (scripts/samples/given.ts).
      let stands: Stands = {};
      try {
        for (const example of typedIdsIn(sample.source)) {
          const make = MADE_WHEN_NAMED[example];
          if (make !== undefined && !identifiers.has(example)) for (const [e, real] of Object.entries((await make(world, known)).keep ?? {})) identifiers.set(e, real);
        }
        stands = (await GIVEN[op.operationId]?.(world, known)) ?? {};
      } catch (error) {
        result.ran += 1;
        result.failed.push(`${op.operationId} (${op.method} ${op.path}): what it acts on could not be made: ${String(error instanceof Error ? error.message : error).slice(0, 300)}`);
        continue;
      }
      for (const [e, real] of Object.entries(stands.keep ?? {})) identifiers.set(e, real);
      const names = new Map([...identifiers, ...Object.entries(stands.only ?? {})]);
      // UMA addresses are unique across platforms: each language's customers have their own.
      const source = substitute(sample.source, names, ids).replace(/\$([a-z0-9.]+)@payments\.example\.org/g, `$$$1.${language.name.toLowerCase()}@payments.example.org`);
      const env = { ...process.env, PAYMENTS_BASE_URL: server.baseUrl, PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, AGENT_ACCESS_TOKEN: stands.accessToken ?? ids.get('accessToken') ?? '' };
      result.ran += 1;
      let answer: Answer;
      try {
        answer = await language.run(source, env, index++, op, idsIn(sample.source, names, ids));
      } catch (error) {
        result.failed.push(`${op.operationId} (${op.method} ${op.path}): did not run: ${String(error).slice(0, 300)}`);
        continue;
      }
      // The trigger's event carries sample ids that name no object of the platform: no later sample takes them.
      const namesObjects = !ANSWERS_WITH_SAMPLE_IDS.has(op.operationId);
      if (namesObjects) collectIds(answer.body, ids);
      const accessToken = (answer.body as { accessToken?: unknown } | null)?.accessToken;
      if (typeof accessToken === 'string') ids.set('accessToken', accessToken);
      if (namesObjects && op.successes.includes(answer.status)) {
        const found = new Map<string, string>();
        for (const example of op.answers.slice(0, 1)) mapIdentifiers(example, answer.body, found, identifiers);
        // A read, or a sample on objects a step made for it, names only what no earlier answer did.
        const names = op.method === 'GET' || stands.only !== undefined ? (example: string) => !identifiers.has(example) : () => true;
        for (const [example, real] of found) if (names(example)) identifiers.set(example, real);
      }
      if (op.successes.includes(answer.status)) result.passed += 1;
      else result.failed.push(`${op.operationId} (${op.method} ${op.path}): answered ${answer.status}, documented ${op.successes.join(' or ')}: ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
  }
} finally {
  await server.stop();
}

for (const r of results) {
  for (const f of r.failed) console.log(`  ${r.language}: ${f}`);
}
for (const r of results) console.log(`${r.language}: ${r.passed} of ${operations.length} samples answered as documented, ${r.failed.length} failed`);
console.log(`time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const total = operations.length * languages.length;
console.log(`samples: ${passed} of ${total} ran and answered as documented`);
for (const f of compileFailures) console.log(f);
process.exit(compileFailures.length === 0 && results.every((r) => r.failed.length === 0) ? 0 : 1);
