// Runs pending migrations: on server start, and on its own with `npm run db:migrate` (scripts/db-migrate.ts).
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * `poolMode` `transaction` (a transaction-mode pooler: pooler-dialect.ts) runs them all in one
 * transaction that holds the migration lock, so no statement depends on the session it ran in.
 */
export async function migrateToLatest(db: Kysely<Database>, poolMode: 'session' | 'transaction' = 'session'): Promise<string[]> {
  const run = async (on: Kysely<Database>) => {
    const { error, results } = await new Migrator({ db: on, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).map((r) => `${r.migrationName}: ${r.status}`);
  };
  return poolMode === 'transaction' ? db.transaction().execute(run) : run(db);
}
