// Embedded Wallets: the customer's wallet currencies, the wallets' credentials and sessions, the
// single-use signing requests of the signed-retry pattern (and passkey challenges), and the
// sandbox's outbox of one-time-code e-mails (read by tests; no mail leaves the service).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('embedded_wallet_currencies', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`)).execute();

  await db.schema
    .createTable('wallet_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('internal_accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('PASSKEY', 'OAUTH', 'EMAIL_OTP')`))
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_subject', 'text')
    .addColumn('passkey_credential_id', 'text')
    .addColumn('passkey_transports', sql`text[]`)
    // The pending one-time code, hashed; cleared when it opens a session.
    .addColumn('otp_hash', 'text')
    .addColumn('otp_sent_at', 'timestamptz')
    .addColumn('last_challenge_at', 'timestamptz')
    .addColumn('verify_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verify_window_started_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // One live credential per type and wallet, even under concurrent creation.
  await sql`create unique index wallet_credentials_one_per_type on wallet_credentials (account_id, type) where revoked_at is null`.execute(db);

  await db.schema
    .createTable('wallet_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('internal_accounts.id'))
    .addColumn('credential_id', 'text', (c) => c.notNull().references('wallet_credentials.id'))
    .addColumn('client_public_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_sessions_account').on('wallet_sessions').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('wallet_sessions_credential').on('wallet_sessions').column('credential_id').execute();

  await db.schema
    .createTable('wallet_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('internal_accounts.id'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('body_sha256', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('signer_type', 'text', (c) => c.notNull())
    .addColumn('excluded_credential_id', 'text')
    .addColumn('client_public_key', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('used_by_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_requests_target').on('wallet_requests').columns(['target_id', 'operation']).execute();

  await db.schema
    .createTable('wallet_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('credential_id', 'text', (c) => c.notNull().references('wallet_credentials.id'))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_emails_credential').on('wallet_emails').columns(['credential_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['wallet_emails', 'wallet_requests', 'wallet_sessions', 'wallet_credentials']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('customers').dropColumn('embedded_wallet_currencies').execute();
}
