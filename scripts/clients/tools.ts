// The generators and test tools of the clients check, installed from their own registries into the
// scratch folder (.tmp/clients/), each at a pinned version:
//   - openapi-generator's CLI jar from Maven Central, by Maven (maven-dependency-plugin's copy goal);
//   - a virtualenv with clients/requirements.txt from PyPI (openapi-python-client, mypy, pytest,
//     standardwebhooks and the generated clients' runtime);
//   - Go modules (oapi-codegen as a `tool` of clients/go-oapi-codegen/go.mod, Standard Webhooks, the
//     clients' runtime) from the Go module proxy into Go's module cache, by `go` itself when it
//     first needs them (so their download is part of the generation and compile times).
// What is already there (the jar, a virtualenv made from the same requirements) is reused.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mavenEnv } from '../jvm-flags.ts';
import { run, type Ran } from './command.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLIENTS = join(ROOT, 'clients');
/** Generated code, the tools, the virtualenv: nothing of it is committed (.tmp/ is git-ignored). */
export const SCRATCH = join(ROOT, '.tmp', 'clients');
export const SPEC = join(ROOT, 'generated', 'openapi.json');

export const OPENAPI_GENERATOR_VERSION = '7.25.0';
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
export const GENERATOR_JAR = join(SCRATCH, 'tools', `openapi-generator-cli-${OPENAPI_GENERATOR_VERSION}.jar`);

export const VENV = join(SCRATCH, 'venv');
/** As pinned in clients/requirements.txt. */
export const OPENAPI_PYTHON_CLIENT_VERSION = /^openapi-python-client==(\S+)$/m.exec(readFileSync(join(CLIENTS, 'requirements.txt'), 'utf8'))?.[1] ?? '?';
export const venvBin = (name: string) => join(VENV, 'bin', name);

export interface Prepared {
  what: string;
  ran?: Ran;
  /** True when nothing had to be fetched. */
  reused: boolean;
}

/** openapi-generator-cli's jar (about 32 MB), copied by Maven from Maven Central through the local repository. */
export async function prepareGeneratorJar(): Promise<Prepared> {
  const what = `openapi-generator-cli ${OPENAPI_GENERATOR_VERSION} (Maven Central)`;
  if (existsSync(GENERATOR_JAR)) return { what, reused: true };
  mkdirSync(join(SCRATCH, 'tools'), { recursive: true });
  const ran = await run(
    'mvn',
    ['-B', '-q', `${DEPENDENCY_PLUGIN}:copy`, `-Dartifact=org.openapitools:openapi-generator-cli:${OPENAPI_GENERATOR_VERSION}`, `-DoutputDirectory=${join(SCRATCH, 'tools')}`],
    { cwd: SCRATCH, env: mavenEnv() },
  );
  return { what, ran, reused: false };
}

/** The virtualenv, made again when clients/requirements.txt (or the Python it was made with) changed. */
export async function preparePython(): Promise<Prepared> {
  const requirements = join(CLIENTS, 'requirements.txt');
  const version = await run('python3', ['--version'], { cwd: ROOT });
  if (!version.ok) return { what: 'python3', ran: version, reused: false };
  const stamp = createHash('sha256').update(readFileSync(requirements)).update(version.output).digest('hex');
  const stampFile = join(VENV, 'requirements.sha256');
  const what = `virtualenv (${version.output.trim()}) with clients/requirements.txt (PyPI)`;
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return { what, reused: true };
  rmSync(VENV, { recursive: true, force: true });
  const made = await run('python3', ['-m', 'venv', VENV], { cwd: ROOT });
  if (!made.ok) return { what, ran: made, reused: false };
  const installed = await run(venvBin('python'), ['-m', 'pip', 'install', '--no-input', '--quiet', '--disable-pip-version-check', '-r', requirements], { cwd: ROOT });
  if (installed.ok) writeFileSync(stampFile, stamp);
  return { what, ran: { ...installed, seconds: made.seconds + installed.seconds }, reused: false };
}

/** The environment of every Python command: the virtualenv first on PATH (openapi-python-client runs ruff from it). */
export const pythonEnv = (pythonPath: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${join(VENV, 'bin')}:${process.env.PATH ?? ''}`,
  VIRTUAL_ENV: VENV,
  PYTHONPATH: pythonPath,
  PYTHONDONTWRITEBYTECODE: '1',
});

/** Go as configured, in module mode, outside any workspace; modules are checked against the committed go.sum. */
export const goEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GOWORK: 'off', GO111MODULE: 'on' });

/**
 * The Java flow's dependencies and Maven plugins (clients/java-openapi-generator/pom.xml) into the
 * local Maven repository, which the compile then only reads. What go-offline cannot see (plugins'
 * own run-time picks, such as Surefire's JUnit provider) is still fetched by the first build.
 */
export async function prefetchMaven(): Promise<Prepared> {
  const what = 'the Java flow’s dependencies and plugins (Maven Central)';
  const ran = await run('mvn', ['-B', '-q', '-f', join(CLIENTS, 'java-openapi-generator', 'pom.xml'), `${DEPENDENCY_PLUGIN}:go-offline`], { cwd: SCRATCH, env: mavenEnv() });
  return { what, ran, reused: false };
}

/**
 * The modules the Go flows require (clients/go-*\/go.mod, checked against their go.sum) into Go's
 * module cache. Each go.mod replaces the generated client with a folder the check writes later, so
 * a copy of it without those (its requires of example.com/…) is downloaded from instead; the
 * generated clients' own requires are fetched by their first build.
 */
export async function prefetchGoModules(): Promise<Prepared> {
  const what = 'the Go flows’ modules (Go module proxy)';
  const started = performance.now();
  const outputs: string[] = [];
  for (const flow of ['go-oapi-codegen', 'go-openapi-generator']) {
    const dir = join(SCRATCH, 'go-prefetch', flow);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const mod = readFileSync(join(CLIENTS, flow, 'go.mod'), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(require\s+)?example\.com\//.test(line) && !/^replace /.test(line))
      .join('\n');
    writeFileSync(join(dir, 'go.mod'), mod);
    writeFileSync(join(dir, 'go.sum'), readFileSync(join(CLIENTS, flow, 'go.sum')));
    const ran = await run('go', ['mod', 'download'], { cwd: dir, env: goEnv() });
    outputs.push(ran.output);
    if (!ran.ok) return { what, ran: { ...ran, output: outputs.join('') }, reused: false };
  }
  const seconds = (performance.now() - started) / 1000;
  return { what, ran: { ok: true, output: outputs.join(''), seconds, line: 'go mod download' }, reused: false };
}
