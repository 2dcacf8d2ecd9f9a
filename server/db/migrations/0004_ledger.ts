// Money core: a double-entry ledger under the balances, and the transaction columns that the list
// filters and the status changes need.
//
// A movement is one step of a transaction's money (fund, receive, send, hold, release, settle,
// refund), at most one of each kind per transaction: a refund written twice fails on the unique
// key. Its entries are append-only and sum to zero, both enforced by the database, and every
// internal account's cached `balance` equals the sum of its entries (the ledger check proves it).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('source_account_id', 'text')
    .addColumn('destination_account_id', 'text')
    .addColumn('reference', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('settled_at', 'timestamptz')
    .addColumn('cancellation_reason', 'text')
    .execute();
  // Rows so far are sandbox fundings: their account is the destination, and their settledAt moves
  // out of the JSON into its column (status changes update columns, never the JSON).
  await sql`update transactions set
      destination_account_id = internal_account_id,
      reference = details->'reconciliationInstructions'->>'reference',
      settled_at = (details->>'settledAt')::timestamptz,
      details = details - 'settledAt'`.execute(db);
  await db.schema.createIndex('transactions_platform_customer').on('transactions').columns(['platform_id', 'customer_id', 'created_at']).execute();
  await db.schema.createIndex('transactions_source_account').on('transactions').columns(['source_account_id', 'created_at']).execute();
  await db.schema.createIndex('transactions_destination_account').on('transactions').columns(['destination_account_id', 'created_at']).execute();
  await db.schema.createIndex('transactions_reference').on('transactions').columns(['platform_id', 'reference']).execute();

  await db.schema
    .createTable('ledger_movements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('transactions.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('FUND', 'RECEIVE', 'SEND', 'HOLD', 'RELEASE', 'SETTLE', 'REFUND')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'int8', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('ledger_movements_once', ['transaction_id', 'kind'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'int8', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('movement_id', 'text', (c) => c.notNull().references('ledger_movements.id'))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    // An internal account's id, or a system account of the platform: `SYSTEM:<NAME>:<currency>`.
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount', 'int8', (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_movement').on('ledger_entries').column('movement_id').execute();
  await db.schema.createIndex('ledger_entries_account').on('ledger_entries').columns(['account', 'platform_id']).execute();

  // Each movement's entries sum to zero when its transaction commits (deferred: they are inserted together).
  await sql`create function ledger_movement_balanced() returns trigger language plpgsql as $$
    begin
      if (select sum(amount) from ledger_entries where movement_id = new.movement_id) <> 0 then
        raise exception 'ledger movement % does not sum to zero', new.movement_id using errcode = 'check_violation';
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_movement_balanced()`.execute(db);
  // The ledger is append-only: a correction is a new movement, never an edit.
  await sql`create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger is append-only' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger ledger_entries_append_only before update or delete on ledger_entries
    for each statement execute function ledger_append_only()`.execute(db);
  await sql`create trigger ledger_movements_append_only before update or delete on ledger_movements
    for each statement execute function ledger_append_only()`.execute(db);

  // The fundings recorded before the ledger existed get their movement, so every balance is the sum of its entries.
  await sql`insert into ledger_movements (id, platform_id, transaction_id, kind, currency, amount, created_at)
    select 'Movement:' || substr(id, 13), platform_id, id, 'FUND', currency, amount, created_at
    from transactions where status = 'COMPLETED' and type = 'INCOMING'`.execute(db);
  await sql`insert into ledger_entries (movement_id, platform_id, account, amount, created_at)
    select m.id, m.platform_id, e.account, e.amount, m.created_at
    from ledger_movements m join transactions t on t.id = m.transaction_id
    cross join lateral (values ('SYSTEM:SANDBOX_FUNDING:' || m.currency, -m.amount), (t.internal_account_id, m.amount)) as e(account, amount)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger ledger_movements_append_only on ledger_movements`.execute(db);
  await sql`drop trigger ledger_entries_append_only on ledger_entries`.execute(db);
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('ledger_movements').execute();
  await sql`drop function ledger_append_only()`.execute(db);
  await sql`drop function ledger_movement_balanced()`.execute(db);
  for (const index of ['transactions_platform_customer', 'transactions_source_account', 'transactions_destination_account', 'transactions_reference']) {
    await db.schema.dropIndex(index).execute();
  }
  await sql`update transactions set details = details || jsonb_build_object('settledAt', settled_at) where settled_at is not null`.execute(db);
  await db.schema
    .alterTable('transactions')
    .dropColumn('source_account_id')
    .dropColumn('destination_account_id')
    .dropColumn('reference')
    .dropColumn('failure_reason')
    .dropColumn('settled_at')
    .dropColumn('cancellation_reason')
    .execute();
}
