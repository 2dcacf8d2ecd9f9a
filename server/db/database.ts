// Opens the database: PostgreSQL through `pg` when a URL is configured, otherwise an embedded
// PGlite reached through the same `pg.Pool` and kysely's own PostgresDialect, so both run the same
// code path. int8 and numeric columns come back as JavaScript numbers, never strings.
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { acquireDataDirLock } from './data-dir-lock.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;

const INT8 = 20;
const NUMERIC = 1700;

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
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** What a listener hears: the channel's messages, and whether it is listening (it may miss messages while not). */
export interface Listener {
  message(payload: string): void;
  listening(listening: boolean): void;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /** LISTENs on `channel` until closed; on PostgreSQL on a connection of its own, opened again when lost. */
  listen(channel: string, listener: Listener): () => Promise<void>;
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

const RELISTEN_MS = 500;

/**
 * A client of its own (a pooled connection would be handed to queries): when PostgreSQL drops it,
 * the listener hears `listening(false)` at once and the client is opened again until closed.
 */
function listenOnPostgres(url: string, channel: string, listener: Listener, log: Logger): () => Promise<void> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed) return;
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    let down = false;
    const lost = (err?: Error) => {
      if (down) return;
      down = true;
      listener.listening(false);
      if (!closed) {
        if (err !== undefined) log.warn({ err: err.message }, `stopped listening on ${channel}; trying again`);
        retry = setTimeout(() => void connect(), RELISTEN_MS);
      }
      void current.end().catch(() => undefined);
    };
    current.on('error', lost);
    current.on('end', () => lost());
    current.on('notification', (n) => {
      if (n.channel === channel) listener.message(n.payload ?? '');
    });
    try {
      await current.connect();
      await current.query(`listen ${channel}`);
      if (!down && !closed) listener.listening(true);
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    listener.listening(false);
    await client?.end().catch(() => undefined);
  };
}

export async function openDatabase(options: { databaseUrl: string | undefined; pgliteDataDir: string }, log: Logger): Promise<DatabaseHandle> {
  if (options.databaseUrl !== undefined) {
    const pool = survivingDroppedConnections(new pg.Pool({ connectionString: options.databaseUrl, types, max: 10 }), log);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', listen: (channel, listener) => listenOnPostgres(options.databaseUrl as string, channel, listener, log), close: () => db.destroy() };
  }
  const inMemory = options.pgliteDataDir.startsWith('memory://');
  let release = () => {};
  if (!inMemory) {
    mkdirSync(dirname(options.pgliteDataDir), { recursive: true });
    // PGlite is one process's database: a second server on the same folder would corrupt it.
    release = acquireDataDirLock(options.pgliteDataDir);
    mkdirSync(options.pgliteDataDir, { recursive: true });
  }
  const pglite = await PGlite.create(options.pgliteDataDir);
  const pool = survivingDroppedConnections(new pg.Pool({ ...createPgConfig(pglite), types }), log);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    listen: (channel, listener) => {
      // One process owns an embedded database: nothing can change it without this process hearing.
      const unlisten = pglite.listen(channel, (payload) => listener.message(payload));
      void unlisten.then(() => listener.listening(true));
      return async () => {
        listener.listening(false);
        await (await unlisten)();
      };
    },
    close: async () => {
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}
