// Starts Prism (`prism mock` or `prism proxy`) on a free port for the suite and for the oracle's
// self-test, and waits until it answers.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.ts';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * Prism validates with JSON Schema 2020-12 only when the document declares
 * `jsonSchemaDialect: https://json-schema.org/draft/2020-12/schema`; otherwise it converts every
 * schema to draft-07, which ignores `unevaluatedProperties` and `dependentRequired`
 * (stoplightio/prism#2797, @stoplight/http-spec's convertSchema). The bundle leaves the dialect at
 * the OpenAPI 3.1 default, as Swagger UI expects, so Prism is given a copy that declares it. The
 * suite's tests on the mock of a closed composed body (unevaluatedProperties) and of `idType`
 * without `identifier` (dependentRequired) fail without it.
 */
function withDialectForPrism(spec: string): string {
  if (!/(^|\/)generated\/openapi\.(yaml|json)$/.test(spec)) return spec;
  const text = readFileSync(join(root, 'generated', 'openapi.json'), 'utf8');
  const { openapi, ...rest } = JSON.parse(text) as Record<string, unknown>;
  const dir = join(root, '.tmp');
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, `openapi-for-prism-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  // Written whole under another name, then renamed: a Prism started meanwhile never reads half of it.
  const partial = `${copy}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ openapi, jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema', ...rest }));
  renameSync(partial, copy);
  return copy;
}

export interface PrismProcess {
  origin: string;
  output(): string;
  stop(): void;
  /** Resolves with the exit code (or signal) once Prism has ended, for whatever reason. */
  exited: Promise<number | string | null>;
}

/** `args` are Prism's command and its arguments before the port, e.g. `['proxy', spec, upstream, '--errors']`. */
export async function startPrism(args: string[], timeoutMs = 90_000): Promise<PrismProcess> {
  const port = await freePort();
  // Own process group, so stopping it also stops what Prism forks.
  const [command, spec, ...more] = args;
  const prismArgs = command === undefined || spec === undefined ? args : [command, withDialectForPrism(spec), ...more];
  const child = spawn(join(root, 'node_modules', '.bin', 'prism'), [...prismArgs, '-p', String(port), '-h', '127.0.0.1'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const exited = new Promise<number | string | null>((done) => child.on('exit', (code, signal) => done(code ?? signal)));
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${log}`);
    // Any answer will do (a proxy forwards this one, or refuses it for lack of credentials).
    if ((await fetch(`${origin}/config`).catch(() => undefined)) !== undefined) return { origin, output: () => log, stop, exited };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`prism did not start within ${timeoutMs / 1000} s:\n${log}`);
}
