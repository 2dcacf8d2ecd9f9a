// Agents: software acting for one customer under a policy, connected by redeeming a device code
// for a bearer access token (stored only as its SHA-256). Device codes are stored hashed too: a code
// is a credential until it is redeemed. Quotes remember the agent that created them.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('policy', 'jsonb', (c) => c.notNull())
    .addColumn('access_token_hash', 'text', (c) => c.unique())
    .addColumn('connected_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agents_platform_created').on('agents').columns(['platform_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('agent_device_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('replaced_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_device_codes_agent').on('agent_device_codes').column('agent_id').execute();
  // The agent that created a quote (it reads and executes only its own).
  await db.schema.alterTable('quotes').addColumn('agent_id', 'text', (c) => c.references('agents.id')).execute();
  await sql`comment on column agents.access_token_hash is 'SHA-256 (hex) of the bearer token; the token itself is never stored'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('quotes').dropColumn('agent_id').execute();
  await db.schema.dropTable('agent_device_codes').execute();
  await db.schema.dropTable('agents').execute();
}
