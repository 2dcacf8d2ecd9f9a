// Cross-currency payments: receiver lookups (what a receiver accepts, valid 15 minutes) and quotes
// (a locked price until `expires_at`). A quote's status after execution is its transaction's, so
// the row only records whether it is still open (PENDING), was executed, or expired.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receiver_lookups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('UMA', 'EXTERNAL_ACCOUNT')`))
    // The UMA address (canonical) or the external account id that was looked up.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('currencies', sql`text[]`, (c) => c.notNull())
    .addColumn('required_fields', 'jsonb', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDING', 'EXECUTED', 'EXPIRED')`))
    .addColumn('source_type', 'text', (c) => c.notNull().check(sql`source_type in ('ACCOUNT', 'REALTIME_FUNDING')`))
    .addColumn('source_account_id', 'text', (c) => c.references('internal_accounts.id'))
    .addColumn('destination_account_id', 'text')
    .addColumn('sending_currency', 'text', (c) => c.notNull())
    .addColumn('receiving_currency', 'text', (c) => c.notNull())
    .addColumn('total_sending_amount', 'int8', (c) => c.notNull().check(sql`total_sending_amount > 0`))
    .addColumn('total_receiving_amount', 'int8', (c) => c.notNull().check(sql`total_receiving_amount > 0`))
    .addColumn('fees_included', 'int8', (c) => c.notNull().check(sql`fees_included >= 0 and fees_included < total_sending_amount`))
    .addColumn('transaction_id', 'text', (c) => c.references('transactions.id'))
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quotes_transaction').on('quotes').column('transaction_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quotes').execute();
  await db.schema.dropTable('receiver_lookups').execute();
}
