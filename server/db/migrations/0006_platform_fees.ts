// The platform's own fees per sending currency, added to the service's on quotes and exchange rates.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('platforms').addColumn('fee_configs', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('platforms').dropColumn('fee_configs').execute();
}
