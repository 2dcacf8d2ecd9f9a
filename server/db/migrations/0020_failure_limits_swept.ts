// Failure-limit keys are forgotten as soon as nothing is counted on them: each failure recorded
// sweeps a few keys whose failures have all come back (limits/failure-limits.repository.ts), and
// this index finds them without reading the live ones, so the table holds about as many rows as
// keys are being counted at the moment, not as failures were made in the last hour.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('failure_limits_recovered_at').on('failure_limits').column('recovered_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('failure_limits_recovered_at').execute();
}
