// The server's own life cycle on the embedded database: the first start creates the sandbox
// platform and prints its token once; a restart on the same data folder keeps everything and
// prints nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { freePort } from '../support/free-port.ts';
import { basicAuth, jsonBody } from '../support/raw-requests.ts';

const root = resolve(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'payments-pglite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));


async function runServer<T>(use: (base: string, output: () => string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PGLITE_DATA_DIR: dataDir, DATABASE_URL: '', PAYMENTS_CLIENT_ID: '', PAYMENTS_CLIENT_SECRET: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const deadline = Date.now() + 60_000;
    while (!out.includes('docs http://') && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(out);
      await new Promise((r) => setTimeout(r, 100));
    }
    return await use(`http://127.0.0.1:${port}/2025-10-13`, () => out);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('embedded database', () => {
  // About the embedded database only: run once, with the PGlite target.
  it.skipIf(target !== 'pglite')('keeps data across restarts and prints the first token only on the first start', async () => {
    const first = await runServer(async (base, output) => {
      const clientId = /clientId:\s+(\S+)/.exec(output())?.[1];
      const clientSecret = /clientSecret:\s+(\S+)/.exec(output())?.[1];
      expect(clientId).toMatch(/^[0-9a-f]{32}$/);
      const auth = { Authorization: basicAuth({ clientId: clientId ?? '', clientSecret: clientSecret ?? '' }) };
      const created = await fetch(`${base}/tokens`, { method: 'POST', ...jsonBody({ name: 'survives restarts', permissions: ['VIEW'] }, auth) });
      expect(created.status).toBe(201);
      return { auth, tokenId: ((await created.json()) as { id: string }).id };
    });

    await runServer(async (base, output) => {
      expect(output()).not.toMatch(/clientSecret/);
      const read = await fetch(`${base}/tokens/${first.tokenId}`, { headers: first.auth });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { name: string }).name).toBe('survives restarts');
    });
  }, 180_000);
});
