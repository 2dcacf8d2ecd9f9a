// Starts the contract suite's target once per run, on a free high port, and stops it afterwards:
//   CONTRACT_TARGET=pglite    the real server on an in-memory PGlite database (default)
//   CONTRACT_TARGET=postgres  the real server on a fresh database of the PostgreSQL at
//                             CONTRACT_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//   CONTRACT_TARGET=prism     a Prism mock of generated/openapi.yaml
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.ts';
import { resetObservedStatuses } from './observed-statuses.ts';
import { createDatabase } from './postgres-database.ts';
import { startServer } from './server-process.ts';

export type Target = 'pglite' | 'postgres' | 'prism';

declare module 'vitest' {
  export interface ProvidedContext {
    target: Target;
    baseUrl: string;
    clientId: string;
    clientSecret: string;
    /** The PostgreSQL database of the postgres target (empty otherwise). */
    databaseUrl: string;
    /** The target server's master key (base64): other processes on its database need the same. */
    masterKey: string;
    /** The target server's origin, for its test controls (empty for the mock). */
    origin: string;
  }
}

const root = resolve(import.meta.dirname, '..', '..');
const TEST_CLIENT_ID = randomBytes(16).toString('hex');
const TEST_CLIENT_SECRET = `sk_sandbox_${randomBytes(32).toString('base64url')}`;
const MASTER_KEY = randomBytes(32).toString('base64');

/** A Prism mock of generated/openapi.yaml on a free port (routes without the version segment). */
export async function startPrism(): Promise<{ origin: string; stop: () => void }> {
  const port = await freePort();
  // Own process group, so stopping it also stops what Prism forks.
  const child = spawn(join(root, 'node_modules', '.bin', 'prism'), ['mock', 'generated/openapi.yaml', '-p', String(port), '-h', '127.0.0.1'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
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
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${log}`);
    if ((await fetch(`${origin}/config`).catch(() => undefined)) !== undefined) return { origin, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`prism did not start within 90 s:\n${log}`);
}

export default async function setup(project: TestProject) {
  const target = (process.env.CONTRACT_TARGET ?? 'pglite') as Target;
  if (!['pglite', 'postgres', 'prism'].includes(target)) throw new Error(`unknown CONTRACT_TARGET ${target}`);
  resetObservedStatuses(target);
  const cleanups: (() => Promise<unknown> | void)[] = [];
  let baseUrl: string;
  let origin = '';
  let databaseUrl = '';

  if (target === 'prism') {
    const prism = await startPrism();
    cleanups.push(prism.stop);
    // Prism routes the spec's paths without the servers' /2025-10-13 prefix.
    baseUrl = prism.origin;
  } else {
    if (target === 'postgres') {
      const database = await createDatabase(process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'contract');
      databaseUrl = database.url;
      cleanups.push(database.drop);
    }
    try {
      const server = await startServer({ PAYMENTS_CLIENT_ID: TEST_CLIENT_ID, PAYMENTS_CLIENT_SECRET: TEST_CLIENT_SECRET, PAYMENTS_MASTER_KEY: MASTER_KEY, DATABASE_URL: databaseUrl });
      cleanups.unshift(() => server.stop());
      baseUrl = server.baseUrl;
      origin = server.origin;
    } catch (error) {
      for (const cleanup of cleanups) await cleanup();
      throw error;
    }
  }

  project.provide('target', target);
  project.provide('baseUrl', baseUrl);
  project.provide('origin', origin);
  project.provide('clientId', TEST_CLIENT_ID);
  project.provide('clientSecret', TEST_CLIENT_SECRET);
  project.provide('databaseUrl', databaseUrl);
  project.provide('masterKey', MASTER_KEY);

  return async () => {
    try {
      // After every money test of the run: each balance must equal the sum of its ledger entries.
      if (origin !== '') await expectConsistentLedger(origin);
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  };
}

/** Runs the server's ledger check and fails the run when anything differs. */
export async function expectConsistentLedger(serverOrigin: string): Promise<void> {
  const response = await fetch(`${serverOrigin}/__test/ledger/check`);
  const report = (await response.json()) as { consistent?: boolean; accounts?: number; movements?: number };
  if (response.status !== 200 || report.consistent !== true) {
    throw new Error(`the ledger check found differences after the run: ${JSON.stringify(report)}`);
  }
  process.stdout.write(`ledger check: ${report.accounts} internal accounts, ${report.movements} movements, every balance equals the sum of its entries\n`);
}
