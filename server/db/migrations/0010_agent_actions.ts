// Agent actions: what an agent submits (a quote execution, a transfer), decided by its policy or by
// the platform. Each names its payment from submission on; `counted_amount` is what it weighs
// against the spending limits, in the limits' currency at submission.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agent_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED')`))
    .addColumn('quote_id', 'text', (c) => c.references('quotes.id'))
    .addColumn('transfer', 'jsonb')
    .addColumn('transaction_id', 'text', (c) => c.references('transactions.id'))
    .addColumn('counted_amount', 'int8', (c) => c.notNull().check(sql`counted_amount >= 0`))
    .addColumn('rejection_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_actions_agent_created').on('agent_actions').columns(['agent_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('agent_actions_transaction').on('agent_actions').column('transaction_id').execute();
  // The latest execution an agent submitted for a quote.
  await db.schema.alterTable('quotes').addColumn('agent_action_id', 'text', (c) => c.references('agent_actions.id')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('quotes').dropColumn('agent_action_id').execute();
  await db.schema.dropTable('agent_actions').execute();
}
