// Runs pending migrations: on server start, and on its own with `npm run db:migrate`.
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { Migrator } from 'kysely/migration';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => `${r.migrationName}: ${r.status}`);
}

if (import.meta.main) {
  const config = loadConfig();
  const handle = await openDatabase(config, pino({ level: 'warn' }));
  try {
    const applied = await migrateToLatest(handle.db);
    console.log(applied.length === 0 ? 'database is up to date' : applied.join('\n'));
  } finally {
    await handle.close();
  }
}
