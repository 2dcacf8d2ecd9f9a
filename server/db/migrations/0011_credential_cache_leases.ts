// Leases of the per-process credential caches: a process may answer from its cache only while its
// lease is live, and a revocation waits until every process holding a lease has dropped the
// revoked credential (see tokens/cache-coherence.ts). Times are the database's own clock.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credential_cache_leases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('registered_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credential_cache_leases').execute();
}
