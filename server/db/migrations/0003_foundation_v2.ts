// Foundation v2: durable jobs (webhook delivery and delayed sandbox outcomes run on them), the
// authentication-failure counter shared by every server process, the fingerprint of the
// encryption key, and idempotency keys stored sealed and claimed inside the work's own transaction.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'DONE', 'FAILED')`))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().check(sql`max_attempts >= 1`))
    // A lease: the process running the job, until when. An expired lease is taken over.
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index jobs_due on jobs (run_at) where status = 'PENDING'`.execute(db);

  await db.schema
    .createTable('auth_failures')
    // What the caller sent as clientId, hashed: any string may arrive, and none is stored as sent.
    .addColumn('client_id_hash', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('encryption_key_check')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // Keys are a 24-hour cache of responses: the old rows (plain JSON, with in-flight markers) go.
  await db.deleteFrom('idempotency_keys' as never).execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('state').dropColumn('locked_at').dropColumn('response_status').dropColumn('response_body').execute();
  // The stored response (status, headers, body) sealed with the server's key: it may hold a secret shown once.
  await db.schema.alterTable('idempotency_keys').addColumn('response', 'text', (c) => c.notNull()).execute();

  // Webhook deliveries are scheduled as jobs now; the outbox keeps the event and its delivery record.
  await sql`drop index webhook_outbox_due`.execute(db);
  await db.schema.alterTable('webhook_outbox').dropColumn('next_attempt_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_outbox').addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute();
  await sql`create index webhook_outbox_due on webhook_outbox (next_attempt_at) where status = 'PENDING'`.execute(db);
  await db.deleteFrom('idempotency_keys' as never).execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('response').execute();
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('IN_FLIGHT', 'DONE')`))
    .addColumn('locked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .execute();
  await db.schema.dropTable('encryption_key_check').execute();
  await db.schema.dropTable('auth_failures').execute();
  await db.schema.dropTable('jobs').execute();
}
