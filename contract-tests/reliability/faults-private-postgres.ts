// A PostgreSQL server of the test's own, for faults the machine's shared server must never see (a
// restart): initdb into a fresh folder in /tmp, trust authentication, a free port, its socket in
// that folder. Run as the `postgres` OS user, since initdb and postgres refuse to run as root.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/free-port.ts';

// Debian's PostgreSQL 15 (scripts/setup-machine.sh installs it); PG_BIN names another.
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  /** The maintenance database's URL (for createDatabase and startCluster). */
  adminUrl: string;
  /** Stops PostgreSQL (fast: open connections are ended), waits, then starts it again on the same port. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  destroy(): Promise<void>;
}

const run = promisify(execFile);

/** Runs a PostgreSQL binary as the postgres OS user when this process is root (asynchronously: the test's requests go on meanwhile). */
async function asPostgres(binary: string, args: string[]): Promise<void> {
  const command = join(BIN, binary);
  if (userInfo().uid === 0) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
  else await run(command, args);
}

function chownToPostgres(path: string): void {
  if (userInfo().uid !== 0) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(path, uid, gid);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'faults-pg-'));
  chownToPostgres(folder);
  const data = join(folder, 'data');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // fsync off: the test restarts the server, it never crashes the machine; it keeps the restart fast.
  const options = `-k ${folder} -c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c max_connections=100`;
  const start = () => asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart(downMs = 0) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop,
    start,
    async destroy() {
      if (stopped) return;
      stopped = true;
      await stop().catch(() => undefined); // already stopped
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
