// Platform core: platforms, API tokens, idempotency keys, customers and their verification data,
// internal and external accounts, transactions.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {

  await db.schema
    .createTable('platforms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('uma_domain', 'text', (c) => c.notNull())
    .addColumn('webhook_endpoint', 'text')
    .addColumn('webhook_signing_secret', 'text')
    .addColumn('supported_currencies', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', sql`text[]`, (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_tokens_platform_created').on('api_tokens').columns(['platform_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('IN_FLIGHT', 'DONE')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('locked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['credential_id', 'operation_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('platform_customer_id', 'text', (c) => c.notNull())
    .addColumn('customer_type', 'text', (c) => c.notNull().check(sql`customer_type in ('INDIVIDUAL', 'BUSINESS')`))
    .addColumn('region', 'text')
    .addColumn('currencies', sql`text[]`, (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('uma_address', 'text', (c) => c.notNull())
    .addColumn('kyc_status', 'text')
    .addColumn('kyb_status', 'text')
    .addColumn('profile', 'jsonb', (c) => c.notNull())
    // Write-only government identifier: kept out of `profile` so no mapping can return it by accident.
    .addColumn('identifier', 'text')
    .addColumn('is_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // The handlers map violations of these two to 409 PLATFORM_CUSTOMER_ID_EXISTS / UMA_ADDRESS_EXISTS.
    .addUniqueConstraint('customers_platform_customer_id', ['platform_id', 'platform_customer_id'])
    .execute();
  await db.schema.createIndex('customers_platform_created').on('customers').columns(['platform_id', 'created_at', 'id']).execute();
  // UMA addresses are routable and case-insensitive: unique across the service, not per platform.
  await sql`create unique index customers_uma_address on customers (lower(uma_address))`.execute(db);

  await db.schema
    .createTable('beneficial_owners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('roles', sql`text[]`, (c) => c.notNull())
    // Optional unless the roles include UBO; unconstrained numeric keeps the percentage as sent.
    .addColumn('ownership_percentage', 'numeric', (c) => c.check(sql`ownership_percentage between 0 and 100`))
    .addColumn('personal_info', 'jsonb', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('kyc_status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('beneficial_owners_platform_created').on('beneficial_owners').columns(['platform_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('beneficial_owners_customer').on('beneficial_owners').column('customer_id').execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    // The customer the holder belongs to (the holder itself, or a beneficial owner's business).
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('document_holder', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('side', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('document_number', 'text')
    .addColumn('issuing_authority', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull().check(sql`size_bytes between 1 and 10485760`))
    .addColumn('content', 'bytea', (c) => c.notNull())
    // Set once a POST /verifications of the customer has run after the upload: it can no longer be deleted.
    .addColumn('submitted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_platform_created').on('documents').columns(['platform_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('documents_customer').on('documents').column('customer_id').execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('errors', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verifications_platform_created').on('verifications').columns(['platform_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('verifications_customer_created').on('verifications').columns(['customer_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('internal_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('balance', 'int8', (c) => c.notNull().defaultTo(0).check(sql`balance >= 0`))
    .addColumn('private_enabled', 'boolean')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('internal_accounts_platform_created').on('internal_accounts').columns(['platform_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('external_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('account_info', 'jsonb', (c) => c.notNull())
    .addColumn('primary_identifier', 'text', (c) => c.notNull())
    .addColumn('platform_account_id', 'text')
    .addColumn('default_uma_deposit_account', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('beneficiary_verification_status', 'text')
    .addColumn('beneficiary_verified_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('external_accounts_platform_created').on('external_accounts').columns(['platform_id', 'created_at', 'id']).execute();
  // One live account per owner and identifier (409 on duplicates), one default per customer.
  await sql`create unique index external_accounts_unique_identifier on external_accounts
    (platform_id, coalesce(customer_id, ''), account_type, primary_identifier) where deleted_at is null`.execute(db);
  await sql`create unique index external_accounts_one_default on external_accounts (customer_id)
    where default_uma_deposit_account and deleted_at is null`.execute(db);

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('INCOMING', 'OUTGOING')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('internal_account_id', 'text', (c) => c.references('internal_accounts.id'))
    .addColumn('amount', 'int8', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transactions_platform_created').on('transactions').columns(['platform_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('transactions_internal_account').on('transactions').columns(['internal_account_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['transactions', 'external_accounts', 'internal_accounts', 'verifications', 'documents', 'beneficial_owners', 'customers', 'idempotency_keys', 'api_tokens', 'platforms']) {
    await db.schema.dropTable(table).execute();
  }
}
