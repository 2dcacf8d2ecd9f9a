// Opens the database: PostgreSQL through `pg` when a URL is configured, otherwise an embedded
// PGlite reached through the same `pg.Pool` and kysely's own PostgresDialect, so both run the same
// code path. int8 and numeric columns come back as JavaScript numbers, never strings.
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
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

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export async function openDatabase(options: { databaseUrl: string | undefined; pgliteDataDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, types, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (!options.pgliteDataDir.startsWith('memory://')) mkdirSync(options.pgliteDataDir, { recursive: true });
  const pglite = await PGlite.create(options.pgliteDataDir);
  const pool = new pg.Pool({ ...createPgConfig(pglite), types });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}
