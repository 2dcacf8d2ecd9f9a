// Starts the contract suite's target once per run, on a free high port, and stops it afterwards:
//   CONTRACT_TARGET=pglite    the real server on an in-memory PGlite database (default)
//   CONTRACT_TARGET=postgres  the real server on a fresh database of the PostgreSQL at
//                             CONTRACT_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//   CONTRACT_TARGET=prism     a Prism mock of generated/openapi.yaml
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.ts';
import { resetObservedStatuses } from './observed-statuses.ts';

export type Target = 'pglite' | 'postgres' | 'prism';

declare module 'vitest' {
  export interface ProvidedContext {
    target: Target;
    baseUrl: string;
    clientId: string;
    clientSecret: string;
    /** The PostgreSQL database of the postgres target (empty otherwise). */
    databaseUrl: string;
  }
}

const root = resolve(import.meta.dirname, '..', '..');
const TEST_CLIENT_ID = randomBytes(16).toString('hex');
const TEST_CLIENT_SECRET = `sk_sandbox_${randomBytes(32).toString('base64url')}`;


async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`target exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`target did not start within 90 s:\n${output()}`);
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  // Own process group, so stopping it also stops anything it forked (Prism forks).
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  return { child, output: () => log };
}

const stop = (child: ChildProcess) => {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
};

export default async function setup(project: TestProject) {
  const target = (process.env.CONTRACT_TARGET ?? 'pglite') as Target;
  if (!['pglite', 'postgres', 'prism'].includes(target)) throw new Error(`unknown CONTRACT_TARGET ${target}`);
  resetObservedStatuses(target);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  let started: ReturnType<typeof start>;
  let databaseUrl = '';

  if (target === 'prism') {
    started = start(join(root, 'node_modules', '.bin', 'prism'), ['mock', 'generated/openapi.yaml', '-p', String(port), '-h', '127.0.0.1'], {});
  } else {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      VALIDATE_RESPONSES: '1',
      LOG_LEVEL: 'warn',
      PAYMENTS_CLIENT_ID: TEST_CLIENT_ID,
      PAYMENTS_CLIENT_SECRET: TEST_CLIENT_SECRET,
      PGLITE_DATA_DIR: 'memory://',
      DATABASE_URL: '',
    };
    if (target === 'postgres') {
      const adminUrl = process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
      const name = `contract_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
      databaseUrl = env.DATABASE_URL;
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      });
    }
    started = start(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'server/main.ts'], env);
  }
  cleanups.unshift(() => stop(started.child));

  try {
    await waitUntilUp(target === 'prism' ? `${origin}/config` : `${origin}/openapi.json`, started.child, started.output);
  } catch (error) {
    for (const cleanup of cleanups) await cleanup();
    throw error;
  }

  project.provide('target', target);
  // Prism routes the spec's paths without the servers' /2025-10-13 prefix.
  project.provide('baseUrl', target === 'prism' ? origin : `${origin}/2025-10-13`);
  project.provide('clientId', TEST_CLIENT_ID);
  project.provide('clientSecret', TEST_CLIENT_SECRET);
  project.provide('databaseUrl', databaseUrl);

  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}
