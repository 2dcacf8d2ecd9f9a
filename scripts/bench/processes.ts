// The processes the benchmark measures: the server (`node server/main.ts`, as `npm start` runs it)
// in the variants it compares, and the Prism mock of the same bundle. Each start is timed from the
// spawn to the first authenticated answer of the API: the "ready to serve" figure.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { freePort } from '../../contract-tests/support/free-port.ts';
import { createDatabase } from '../../contract-tests/support/postgres-database.ts';
import { startPrism } from '../../contract-tests/support/prism-process.ts';
import type { DependencyPatch } from '../../server/dependency-patches/index.ts';

const root = resolve(import.meta.dirname, '..', '..');

export const credentials = { clientId: randomBytes(16).toString('hex'), clientSecret: `sk_sandbox_${randomBytes(32).toString('base64url')}` };
export const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
const masterKey = randomBytes(32).toString('base64');

export interface Running {
  /** Where the API's paths start: the server's `/2025-10-13`, or Prism's root. */
  base: string;
  readyMs: number;
  /** The server's process (not Prism's). */
  pid?: number;
  stop(): Promise<void>;
}

interface Options {
  validateRequests?: boolean;
  /** Dependency patches left out (server-without-patches.ts): only `npm run bench:patches` asks. */
  leaveOut?: readonly DependencyPatch[];
  /** More settings (DATABASE_POOL_MODE, DATABASE_DIRECT_URL: scripts/bench/pooler.ts). */
  env?: NodeJS.ProcessEnv;
}
/** PGlite in memory, or in `dataDir` (a folder the scale benchmark grows between two starts). */
export type Variant = ({ database: 'postgres'; url: string } | { database: 'pglite'; dataDir?: string }) & Options;

/** The server in production-like settings: no response validation, no test controls, silent. */
export async function startServer(variant: Variant): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const entry = variant.leaveOut === undefined ? ['server/main.ts'] : ['scripts/bench/server-without-patches.ts', ...variant.leaveOut];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'benchmark',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      VALIDATE_RESPONSES: '0',
      VALIDATE_REQUESTS: variant.validateRequests === false ? '0' : '1',
      DATABASE_URL: variant.database === 'postgres' ? variant.url : '',
      PGLITE_DATA_DIR: variant.database === 'pglite' && variant.dataDir !== undefined ? variant.dataDir : 'memory://',
      PAYMENTS_CLIENT_ID: credentials.clientId,
      PAYMENTS_CLIENT_SECRET: credentials.clientSecret,
      PAYMENTS_MASTER_KEY: masterKey,
      ...variant.env,
    },
  });
  const base = `http://127.0.0.1:${port}/2025-10-13`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const res = await fetch(`${base}/config`, { headers: { authorization } }).catch(() => undefined);
    if (res?.status === 200) break;
    if (performance.now() - started > 60_000) throw new Error('the server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  return { base, readyMs: performance.now() - started, pid: child.pid, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The GET routes' floor (floor-server.ts) on `url`'s data, on PostgreSQL or copied into PGlite, routed by Express with `framework`. */
export async function startFloor(database: 'postgres' | 'pglite', url: string, framework?: 'express'): Promise<Running> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/bench/floor-server.ts', database, url, ...(framework === undefined ? [] : [framework])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /PORT (\d+)/.exec(out);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, readyMs: performance.now() - started, pid: child.pid, stop: () => stopChild(child) };
}

export async function startMock(): Promise<Running> {
  const started = performance.now();
  const prism = await startPrism(['mock', 'generated/openapi.yaml']);
  return {
    base: prism.origin,
    readyMs: performance.now() - started,
    stop: async () => {
      prism.stop();
      await prism.exited;
    },
  };
}

/** A fresh database on the machine's PostgreSQL, or undefined (with the reason printed) when there is none. */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  try {
    return await createDatabase(process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'bench');
  } catch (error) {
    console.log(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
