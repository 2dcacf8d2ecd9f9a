// Failed attempts counted per key (a clientId with the address it was sent from; an address
// redeeming device codes) as a generic cell rate: one timestamp per key, the moment its attempts
// will all have come back (server/limits/failure-limits.service.ts). auth_failures, which counted
// per clientId alone and so let anyone lock a token's owner out, stays for processes of earlier
// versions during a rolling upgrade; a later migration drops it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('failure_limits')
    // A hash of what is counted: any string may arrive, and no address or clientId is stored as sent.
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('recovered_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('failure_limits').execute();
}
