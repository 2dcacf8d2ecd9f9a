// The stage of the conformance kit's proofs (npm run test:conformance): the package packed and
// installed into a scratch project, as a team installs it; the sandbox server started as a
// separate process on a fresh PostgreSQL database, without test controls (NODE_ENV is not `test`),
// as a deployment runs; and a second platform on it, for the isolation checks.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { installPacked } from '../support/packed-package.ts';
import { createDatabase } from '../support/postgres-database.ts';
import { newCredentials, startServer } from '../support/server-process.ts';

const root = resolve(import.meta.dirname, '..', '..');

export interface Stage {
  /** The installed command (node_modules/.bin/payments-conformance of the scratch project). */
  kit: string;
  /** The scratch project, where the kit runs. */
  project: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  otherClientId: string;
  otherClientSecret: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: Stage;
  }
}

export default async function setup(project: TestProject) {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  const undo = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const packed = installPacked('conformance-kit');
    cleanups.push(() => packed.remove());
    const database = await createDatabase(process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'conformance');
    cleanups.push(() => database.drop());
    const token = newCredentials();
    const masterKey = randomBytes(32).toString('base64');
    const env = { DATABASE_URL: database.url, PAYMENTS_MASTER_KEY: masterKey };
    const server = await startServer({ ...env, NODE_ENV: 'development', PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    cleanups.push(() => server.stop());
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/create-platform.ts', 'Conformance other platform'], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const other = { clientId: /clientId:\s+(\S+)/.exec(stdout)?.[1] ?? '', clientSecret: /clientSecret:\s+(\S+)/.exec(stdout)?.[1] ?? '' };
    if (other.clientId === '') throw new Error(`platform:create printed no token:\n${stdout}`);
    project.provide('conformance', {
      kit: join(packed.dir, 'node_modules', '.bin', 'payments-conformance'),
      project: packed.dir,
      baseUrl: server.baseUrl,
      clientId: token.clientId,
      clientSecret: token.clientSecret,
      otherClientId: other.clientId,
      otherClientSecret: other.clientSecret,
    });
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}
