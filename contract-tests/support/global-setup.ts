// Starts the contract suite's target once per run, on a free high port, and stops it afterwards:
//   CONTRACT_TARGET=pglite    the real server on an in-memory PGlite database (default), behind
//                             `prism proxy --errors`, which checks every request and answer against
//                             generated/openapi.yaml as well (support/proxy-fetch.ts)
//   CONTRACT_TARGET=postgres  the real server on a fresh database of the PostgreSQL at
//                             CONTRACT_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres),
//                             with no proxy between: its tests of concurrency meet at the server
//   CONTRACT_TARGET=prism     a Prism mock of generated/openapi.yaml
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { resetObservedStatuses } from './observed-statuses.ts';
import { createDatabase } from './postgres-database.ts';
import { startPrism } from './prism-process.ts';
import { resetProxyTally } from './proxy-tally.ts';
import { requestShape } from '../fuzz/request-shape.ts';
import { prepareValidators } from './schema-validator.ts';
import { startServer } from './server-process.ts';
import { operations, spec } from './spec.ts';

export type Target = 'pglite' | 'postgres' | 'prism';

declare module 'vitest' {
  export interface ProvidedContext {
    target: Target;
    /** Where the contract's requests go: the server's API base URL, or Prism's origin. */
    baseUrl: string;
    /** The real server's API base URL, past any proxy (empty for the mock). */
    serverBaseUrl: string;
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

const TEST_CLIENT_ID = randomBytes(16).toString('hex');
const TEST_CLIENT_SECRET = `sk_sandbox_${randomBytes(32).toString('base64url')}`;
const MASTER_KEY = randomBytes(32).toString('base64');

export default async function setup(project: TestProject) {
  const target = (process.env.CONTRACT_TARGET ?? 'pglite') as Target;
  if (!['pglite', 'postgres', 'prism'].includes(target)) throw new Error(`unknown CONTRACT_TARGET ${target}`);
  resetObservedStatuses(target);
  resetProxyTally();
  // Compiled while the target starts; the test files then restore them instead of compiling.
  const validators = prepareValidators(everySchemaPointer());
  const cleanups: (() => Promise<unknown> | void)[] = [];
  let baseUrl: string;
  let serverBaseUrl = '';
  let origin = '';
  let databaseUrl = '';

  if (target === 'prism') {
    const prism = await startPrism(['mock', 'generated/openapi.yaml']);
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
      baseUrl = serverBaseUrl = server.baseUrl;
      origin = server.origin;
      if (target === 'pglite') {
        // Prism matches the spec's paths without the servers' /2025-10-13 prefix and forwards them
        // to the upstream URL joined with the request's path: /customers → <server>/2025-10-13/customers.
        const prism = await startPrism(['proxy', 'generated/openapi.yaml', server.baseUrl, '--errors']);
        cleanups.unshift(prism.stop);
        baseUrl = prism.origin;
      }
    } catch (error) {
      for (const cleanup of cleanups) await cleanup();
      throw error;
    }
  }

  await validators;
  project.provide('target', target);
  project.provide('baseUrl', baseUrl);
  project.provide('serverBaseUrl', serverBaseUrl);
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

/** Every schema of the bundle: the named ones, and each parameter's (which the fuzzer checks). */
function everySchemaPointer(): string[] {
  const named = Object.keys(spec.components.schemas ?? {}).map((name) => `#/components/schemas/${name}`);
  const parameters = operations.flatMap((op) => requestShape(op).params.map((p) => p.pointer));
  return [...new Set([...named, ...parameters])];
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
