// A new PostgreSQL database already migrated to the latest schema: a copy of a template database
// migrated once (by the server's own migrations) per PostgreSQL server and set of migrations, for
// the tests whose servers would otherwise each run every migration at their first start (about
// 0.4 CPU-s per database, server and PostgreSQL together; bench/README.md). The suite's target
// database, the kit's and the pooler's first cluster still start empty, so a first start's
// migrations stay tested. Templates are named `payments_schema_<hash of the migrations>` and hold
// the schema only: one of older migrations may be dropped at any time.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createDatabase } from './postgres-database.ts';

const MIGRATIONS = resolve(import.meta.dirname, '..', '..', 'server', 'db', 'migrations');

function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS).sort()) hash.update(file).update(readFileSync(join(MIGRATIONS, file)));
  return `payments_schema_${hash.digest('hex').slice(0, 16)}`;
}

const urlOf = (adminUrl: string, name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();

async function exists(admin: pg.Client, name: string): Promise<boolean> {
  return ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0;
}

/** The template of the current migrations, made when missing: migrated under another name, then renamed, so no copy is made of half of one. */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (await exists(admin, name)) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${building}`);
    try {
      const handle = await openDatabase({ databaseUrl: urlOf(adminUrl, building), pgliteDataDir: '' }, pino({ level: 'silent' }));
      try {
        await migrateToLatest(handle.db, handle.poolMode);
      } finally {
        await handle.close();
      }
      // The pool's sessions may still be ending: a rename needs none left.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`alter database ${building} rename to ${name}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    } catch (error) {
      await admin.query(`drop database if exists ${building} with (force)`);
      // Another worker made it meanwhile (the rename found the name taken): use that one.
      if (!(await exists(admin, name))) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}

export async function createMigratedDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  return createDatabase(adminUrl, prefix, await migratedTemplate(adminUrl));
}
