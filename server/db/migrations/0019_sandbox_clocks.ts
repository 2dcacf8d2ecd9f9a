// A sandbox clock per platform (server/clock/): how far each platform's "now" is ahead of real
// time, kept here so every server process reads the same. A platform without a row is on real time.
// Jobs name the platform whose clock they follow (null for the server's own, as housekeeping): a
// job is due when its run_at has passed on that clock, so advancing a platform's clock brings its
// scheduled outcomes, expiries and webhook retries forward and nobody else's.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_clocks')
    .addColumn('platform_id', 'text', (c) => c.primaryKey().references('platforms.id'))
    // Only ever grows: timestamps already written must stay in the platform's past.
    .addColumn('offset_ms', 'bigint', (c) => c.notNull().check(sql`offset_ms >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // While an advance runs (until this real time, renewed at each step): another waits its turn,
    // so two advances at once add up instead of both starting from the same offset.
    .addColumn('advancing_until', 'timestamptz')
    .execute();
  await db.schema.alterTable('jobs').addColumn('platform_id', 'text').execute();
  await sql`create index jobs_due_by_platform on jobs (platform_id, run_at) where status = 'PENDING'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index jobs_due_by_platform`.execute(db);
  await db.schema.alterTable('jobs').dropColumn('platform_id').execute();
  await db.schema.dropTable('sandbox_clocks').execute();
}
