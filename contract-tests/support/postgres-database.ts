// Fresh PostgreSQL databases for the suite: the postgres target's, and those of tests that need
// one of their own (so the faults they cause reach no other test). Each is dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The maintenance database of the PostgreSQL server `url` points at. */
export function adminUrlOf(url: string): string {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

/** A new database, empty or (`template`) a copy of that one (migrated-database.ts). */
export async function createDatabase(adminUrl: string, prefix: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template === undefined ? '' : ` template ${template}`}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A client of its own on `url` for the length of `use`. */
export async function withDatabase<T>(url: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}
