// PgBouncer (Debian's package, installed by scripts/setup-machine.sh) in transaction mode, a process
// of a test's own on a free port with a generated configuration, in front of the suite's
// PostgreSQL: each database asked for reaches the same name there, as the `postgres` role. Run as
// root, it switches to the `postgres` user (PgBouncer refuses to run as root).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export interface Pooler {
  /** `databaseUrl` (a database of the suite's PostgreSQL) reached through the pooler. */
  urlOf(databaseUrl: string): string;
  /** The pooler's counters for one database (SHOW POOLS, SHOW STATS), from its admin console. */
  show(command: 'pools' | 'stats', database: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export interface PoolerOptions {
  /** default_pool_size: server connections per database. */
  poolSize: number;
  /** Startup parameters it drops instead of refusing the client (ignore_startup_parameters). */
  ignoreStartupParameters?: string[];
}

export async function startPgbouncer(targetUrl: string, options: PoolerOptions): Promise<Pooler> {
  const target = new URL(targetUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o755);
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432} user=${decodeURIComponent(target.username) || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      // All of them open, and taken in turn rather than the last used first: consecutive statements
      // of one client land on different server connections, as they do on a busy pooler.
      `min_pool_size = ${options.poolSize}`,
      'server_round_robin = 1',
      'reserve_pool_size = 0',
      'max_client_conn = 1000',
      'admin_users = postgres',
      'log_connections = 0',
      'log_disconnections = 0',
      `ignore_startup_parameters = ${(options.ignoreStartupParameters ?? []).join(',')}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const child = spawn(PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((done) => child.on('close', () => done()));
  child.on('error', (err) => (log += `\n${err.message}`));

  const urlOf = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  const admin = async (command: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
    await client.connect();
    try {
      return (await client.query<Record<string, string>>(command)).rows;
    } finally {
      await client.end();
    }
  };
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await admin('show version');
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await close();
        throw new Error(`pgbouncer did not start (${PGBOUNCER}; scripts/setup-machine.sh installs it): ${(err as Error).message}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    urlOf,
    show: async (command, database) => (await admin(`show ${command}`)).find((row) => row.database === database) ?? {},
    close,
  };
}
