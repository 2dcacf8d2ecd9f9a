// Starts a sandbox server process (`node server/main.ts`, as `npm start` does) for the suite: the global setup's target,
// and the life-cycle tests that need servers of their own (restarts, refusals at start, two
// processes on one database). Each gets a free high port; output is kept for assertions.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { freePort } from './free-port.ts';
import type { TestServer } from './in-process-server.ts';
import { TEST_PROCESS_FLAGS } from './test-process-flags.ts';

const root = resolve(import.meta.dirname, '..', '..');

export interface ServerProcess extends TestServer {
  child: ChildProcess;
  /** Resolves with the exit code once the process has ended and all its output has been read. */
  exited: Promise<number | null>;
  /** SIGTERM (a clean shutdown) unless told otherwise, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Credentials in the contract's formats, for a server's PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET. */
export const newCredentials = () => ({ clientId: randomBytes(16).toString('hex'), clientSecret: `sk_sandbox_${randomBytes(24).toString('base64url')}` });

/** Headers of a JSON request to a server of a test's own (outside the suite's checked client). */
export const jsonHeaders = (credentials: { clientId: string; clientSecret: string }) => ({
  Authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`,
  'content-type': 'application/json',
});

/** The environment of a test server: quiet, in test mode, no bootstrap credentials unless given. */
export function serverEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    VALIDATE_RESPONSES: '1',
    DATABASE_URL: '',
    PGLITE_DATA_DIR: 'memory://',
    PAYMENTS_CLIENT_ID: '',
    PAYMENTS_CLIENT_SECRET: '',
    PAYMENTS_MASTER_KEY: '',
    ...env,
  };
}

/**
 * Spawns the server; `PORT` is chosen unless `env.PORT` is given. Does not wait for it. With
 * `openFiles`, the process may hold at most that many file descriptors (soft and hard limit, so
 * node cannot raise it), as a small machine's server would.
 */
export async function spawnServer(env: NodeJS.ProcessEnv = {}, options: { openFiles?: number } = {}): Promise<ServerProcess> {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  const node = [process.execPath, ...TEST_PROCESS_FLAGS, 'server/main.ts'];
  const [command = '', ...args] = options.openFiles === undefined ? node : ['/bin/sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.openFiles), ...node];
  // Own process group, so stopping it also stops anything it forked.
  const child = spawn(command, args, {
    cwd: root,
    env: serverEnv({ ...env, PORT: String(port) }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-50_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-50_000)));
  // 'close', not 'exit': 'exit' can come before the last of the output is read, and a refused
  // start's message (written just before it exits) was then missing from output() under load.
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const origin = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    origin,
    baseUrl: `${origin}/2025-10-13`,
    output: () => log,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      }
      return exited;
    },
  };
}

/** Waits until the server answers (or has exited: then throws with its output). */
export async function waitUntilServing(server: ServerProcess, timeoutMs = 90_000): Promise<ServerProcess> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited with ${await server.exited}:\n${server.output()}`);
    if (server.output().includes(' docs http://')) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  throw new Error(`the server did not start within ${timeoutMs / 1000} s:\n${server.output()}`);
}

export const startServer = async (env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> => waitUntilServing(await spawnServer(env));

/** Moves the server's clock forward (NODE_ENV=test only) and wakes its job runner. */
export async function advanceClock(origin: string, ms: number): Promise<void> {
  const res = await fetch(`${origin}/__test/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });
  if (res.status !== 200) throw new Error(`clock advance failed: ${res.status} ${await res.text()}`);
}

/** A new platform on the server at `origin` (its test controls, NODE_ENV=test only): its API token. */
export async function createTestPlatform(origin: string, name: string): Promise<{ clientId: string; clientSecret: string }> {
  const res = await fetch(`${origin}/__test/platforms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  if (res.status !== 200) throw new Error(`POST /__test/platforms: ${res.status} ${await res.text()}`);
  return (await res.json()) as { clientId: string; clientSecret: string };
}
