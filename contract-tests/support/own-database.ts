// A database of a test file's own, opened the way the server opens one (server/db/database.ts):
// PGlite in memory on the PGlite target, a fresh PostgreSQL database on the PostgreSQL target, none
// on the others. Call at the top of the file: `db` is set by its beforeAll, and it is closed (and
// the PostgreSQL database dropped) by its afterAll.
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database.ts';
import type { Database } from '../../server/db/schema.ts';
import { target } from './api.ts';
import { adminUrlOf, createDatabase } from './postgres-database.ts';

export const hasOwnDatabase = target === 'pglite' || target === 'postgres';

export function ownDatabase(name: string, prepare: (db: Kysely<Database>) => Promise<void> = async () => {}): { readonly db: Kysely<Database> } {
  const own = {} as { db: Kysely<Database> };
  let handle: DatabaseHandle | undefined;
  let drop = async () => {};
  beforeAll(async () => {
    if (!hasOwnDatabase) return;
    let databaseUrl: string | undefined;
    if (target === 'postgres') {
      const database = await createDatabase(adminUrlOf(inject('databaseUrl')), name);
      databaseUrl = database.url;
      drop = database.drop;
    }
    handle = await openDatabase({ databaseUrl, pgliteDataDir: 'memory://' }, pino({ level: 'silent' }));
    own.db = handle.db;
    await prepare(own.db);
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await drop();
  });
  return own;
}
