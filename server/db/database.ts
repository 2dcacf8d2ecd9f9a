// Opens the database: PostgreSQL through `pg` when a URL is configured, otherwise an embedded
// PGlite reached through the same `pg.Pool` (pglite-connection.ts) and kysely's own
// PostgresDialect, so both run the same code path, with named prepared statements
// (prepared-statements.ts); behind a transaction-mode pooler (DATABASE_POOL_MODE=transaction),
// unnamed ones, which any pooler accepts (server/README.md, "Running at scale"). int8 and numeric
// columns come back as JavaScript numbers, never strings; timestamptz columns as Dates, read by
// timestamps.ts.
import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { pgliteConfig } from './pglite-connection.ts';
import { migratedTemplate, saveMigratedTemplate } from './pglite-template.ts';
import { PoolerDialect } from './pooler-dialect.ts';
import { PreparingClient } from './prepared-statements.ts';
import type { Database } from './schema.ts';
import { parseTimestamptz } from './timestamps.ts';

export type Db = Kysely<Database> | Transaction<Database>;

const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

function parseInt8(value: string): number {
  const n = Number(value);
  // Money is capped far below 2^53 by the contract; a larger value would be a bug, not data.
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} is outside the safe integer range`);
  return n;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return parseInt8;
    if (oid === NUMERIC) return Number;
    if (oid === TIMESTAMPTZ) return parseTimestamptz;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /** `transaction`: `db` reaches PostgreSQL through a transaction-mode pooler (migrate.ts takes it into account). */
  poolMode: 'session' | 'transaction';
  /**
   * PostgreSQL only: how to open a session of one's own, outside the pool (see listener.ts):
   * DATABASE_DIRECT_URL, else DATABASE_URL unless that is a transaction-mode pooler's.
   */
  sessionConfig?: pg.ClientConfig;
  /** Called once the migrations have run: a new PGlite database keeps a snapshot for the next new one. */
  migrated(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A connection PostgreSQL drops (a restart, `pg_terminate_backend`, a network cut) emits 'error'
 * on the pool when it was idle, and on the connection itself when a request had it checked out
 * (between two queries of a transaction); unhandled, either would end the process. The pool
 * discards a broken connection when it comes back and opens another for the next query, and the
 * request that held it fails with a 500 that commits nothing, so logging is all there is to do.
 */
function survivingDroppedConnections(pool: pg.Pool, log: Logger): pg.Pool {
  const lost = (err: Error) => log.warn({ err: err.message }, 'database connection lost; the pool replaces it');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/**
 * PGlite's own start parameters, with 16 MB of shared buffers instead of PostgreSQL's 128 MB: the
 * sandbox's data is small (and in memory, or in the page cache), and setting up the larger buffer
 * pool is CPU and memory every start pays for nothing (bench/README.md).
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * The server's PostgreSQL sessions run without JIT compilation, which pays off for long analytic
 * queries and never for this server's: PostgreSQL compiles any query whose estimated cost passes
 * jit_above_cost, even when the cost lies in a branch that does not run (a list's fallback count of
 * a million rows, db/paginate.ts), and such a compile took 15 to 30 ms of a 1 ms query. Added to
 * the `options` the database URL may carry (which would override a pool's own `options`).
 */
function withoutJit(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const given = url.searchParams.get('options');
  url.searchParams.set('options', [given, '-c jit=off'].filter((o) => o !== null && o !== '').join(' '));
  return url.toString();
}

/** What withoutJit does for a direct connection, a pooler's must be told by the database or role. */
async function warnOfJit(db: Kysely<Database>, log: Logger): Promise<void> {
  const { rows } = await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(db);
  if (rows[0]?.jit === 'on') log.warn('jit is on for the pooled connections: PostgreSQL may compile a list query for longer than it runs; run ALTER DATABASE … SET jit = off (or ALTER ROLE).');
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  pgliteDataDir: string;
  databasePoolMode?: 'session' | 'transaction';
  databaseDirectUrl?: string | undefined;
}

export async function openDatabase(options: DatabaseOptions, log: Logger): Promise<DatabaseHandle> {
  if (options.databaseUrl !== undefined) {
    const direct = options.databaseDirectUrl;
    if (options.databasePoolMode === 'transaction') {
      // A pooler may refuse a startup `options` (PgBouncer does: jit=off is the database's or the
      // role's to set) and cannot keep a named statement for the next transaction, which may run
      // on another server connection.
      const pool = survivingDroppedConnections(new pg.Pool({ connectionString: options.databaseUrl, types, max: 10 }), log);
      const db = new Kysely<Database>({ dialect: new PoolerDialect({ pool }) });
      // A database that cannot be reached is reported by the migrations, next.
      await warnOfJit(db, log).catch(() => {});
      const sessionConfig = direct === undefined ? undefined : { connectionString: direct, types };
      return { db, kind: 'postgres', poolMode: 'transaction', ...(sessionConfig === undefined ? {} : { sessionConfig }), migrated: async () => {}, close: () => db.destroy() };
    }
    const pool = survivingDroppedConnections(
      new pg.Pool({ connectionString: withoutJit(options.databaseUrl), types, max: 10, Client: PreparingClient }),
      log,
    );
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', poolMode: 'session', sessionConfig: { connectionString: direct ?? options.databaseUrl, types }, migrated: async () => {}, close: () => db.destroy() };
  }
  const inMemory = options.pgliteDataDir.startsWith('memory://');
  let release = () => {};
  if (!inMemory) {
    mkdirSync(dirname(options.pgliteDataDir), { recursive: true });
    // PGlite is one process's database: a second server on the same folder would corrupt it.
    release = acquireDataDirLock(options.pgliteDataDir);
    mkdirSync(options.pgliteDataDir, { recursive: true });
  }
  // A new database (in memory, or a folder without one yet) starts from the migrated snapshot.
  const fresh = inMemory || !existsSync(join(options.pgliteDataDir, 'PG_VERSION'));
  const template = fresh ? migratedTemplate() : undefined;
  const pglite = await PGlite.create(options.pgliteDataDir, { startParams: PGLITE_START, ...(template === undefined ? {} : { loadDataDir: template }) });
  const pool = survivingDroppedConnections(new pg.Pool({ ...pgliteConfig(pglite, PreparingClient), types }), log);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    poolMode: 'session',
    migrated: async () => {
      if (fresh && template === undefined) await saveMigratedTemplate(pglite);
    },
    close: async () => {
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}
