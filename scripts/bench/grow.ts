// Grows every listed table of the seed's platform to `rows` rows, in SQL: each table gets one
// INSERT ... SELECT over generate_series that copies the seed's row of its kind (its JSON, its
// sealed identifiers) and varies what the lists filter and sort on. A million rows per table take
// minutes, not the hours the API would.
//
// The grown rows are older than the seed (every 30 seconds back from it, so a time window near the
// seed holds the same rows at every size; 20 of them updated just before it), spread over grown customers the way a platform's are
// (about one account, transaction, document... each), and carry every value of each filter in
// realistic shares: most transactions COMPLETED, one in ten customers a business, one in a hundred
// deleted. Grown ids are md5 uuids of their number, so rows can name grown rows of other tables
// (a transaction its customer and account) without a join. Run once per database, after the seed.
import type { World } from './scale-world.ts';

/** What runs SQL: a pg client or PGlite. */
export interface Sql {
  query(text: string): Promise<unknown>;
}

/** More rows than the seed leaves in any table. */
const SEED = 100;
const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;
const grownId = (type: string, tag: string, n: string) => `'${type}:' || md5('${tag}' || ${n})::uuid`;

/** The statements that grow each table to `rows` rows, in order (later tables name rows of earlier ones). */
export function growthStatements(world: World, rows: number): { table: string; sql: string }[] {
  if (rows <= SEED) throw new Error(`the tables grow to more than ${SEED} rows`);
  const platform = `(select platform_id from customers where id = ${lit(world.customer.id)})`;
  // Rows already there (the seed's), so each table ends with `rows`; computed once per statement.
  const missing = (table: string) => `greatest(${rows} - (select count(*) from ${table}), 0)`;
  const seed = `(select created_at from customers where id = ${lit(world.customer.id)})`;
  const at = (i = 'i') => `${seed} - interval '1 minute' - ${i} * interval '30 seconds'`;
  // 20 rows at every size, spread over the whole history, were updated just before the seed: what
  // a list of the recently updated finds among rows created long ago.
  const updated = `case when i % ${Math.floor(rows / 20)} = 7 then ${seed} - interval '10 seconds' else ${at()} end`;
  // The i-th grown row's customer, account...: grown rows of other tables, by number (1-based,
  // cycling over the first rows - SEED of them, which every grown table has).
  const cycle = (i: string) => `(1 + (${i} - 1) % ${rows - SEED})`;
  const customerOf = (i = 'i') => grownId('Customer', 'c', cycle(i));
  const internalOf = (i = 'i') => grownId('InternalAccount', 'ia', cycle(i));
  const externalOf = (i = 'i') => grownId('ExternalAccount', 'ea', cycle(i));
  const agentOf = (i = 'i') => grownId('Agent', 'ag', cycle(i));
  return [
    {
      table: 'customers',
      sql: `insert into customers (id, platform_id, platform_customer_id, customer_type, region, currencies, embedded_wallet_currencies, email, phone_number,
          uma_address, kyc_status, kyb_status, profile, identifier, is_deleted, created_at, updated_at)
        select ${grownId('Customer', 'c', 'i')}, ${platform}, 'grown-' || i,
          case when i % 10 = 0 then 'BUSINESS' else 'INDIVIDUAL' end,
          (array['US', 'GB', 'DE', 'FR', 'MX'])[1 + i % 5],
          case when i % 3 = 0 then array['USD', 'EUR'] else array['USD'] end, '{}', null, null,
          '$grown' || i || '@' || split_part(si.uma_address, '@', 2),
          case when i % 10 = 0 then null else (array['APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'PENDING', 'UNVERIFIED', 'APPROVED', 'APPROVED', 'APPROVED', 'REJECTED'])[1 + i / 10 % 10] end,
          case when i % 10 = 0 then (array['APPROVED', 'PENDING', null, 'APPROVED', 'REJECTED'])[1 + i / 10 % 5] end,
          case when i % 10 = 0 then sb.profile else si.profile end,
          case when i % 10 = 0 then sb.identifier else si.identifier end,
          i % 100 = 50, ${at()}, ${updated}
        from generate_series(1, ${missing('customers')}) i,
          (select uma_address, profile, identifier from customers where id = ${lit(world.customer.id)}) si,
          (select profile, identifier from customers where id = ${lit(world.business.id)}) sb`,
    },
    {
      table: 'internal_accounts',
      sql: `insert into internal_accounts (id, platform_id, customer_id, type, status, currency, balance, private_enabled, created_at, updated_at)
        select ${grownId('InternalAccount', 'ia', 'i')}, ${platform}, ${customerOf()},
          case when i % 50 = 0 then 'EMBEDDED_WALLET' else 'INTERNAL_FIAT' end, 'ACTIVE',
          case when i % 4 = 0 then 'EUR' else 'USD' end, 0, case when i % 50 = 0 then false end, ${at()}, ${at()}
        from generate_series(1, ${missing('internal_accounts')}) i`,
    },
    {
      table: 'external_accounts',
      sql: `insert into external_accounts (id, platform_id, customer_id, currency, status, account_type, account_info, primary_identifier, platform_account_id,
          default_uma_deposit_account, beneficiary_verification_status, beneficiary_verified_name, created_at, updated_at, deleted_at)
        select ${grownId('ExternalAccount', 'ea', 'i')}, ${platform}, ${customerOf()}, e.currency,
          case when i % 50 = 0 then 'INACTIVE' else e.status end, e.account_type, e.account_info, 'grown-' || i, null, false,
          e.beneficiary_verification_status, e.beneficiary_verified_name, ${at()}, ${at()}, case when i % 50 = 0 then ${at()} end
        from generate_series(1, ${missing('external_accounts')}) i,
          (select * from external_accounts where id = ${lit(world.customer.external)}) e`,
    },
    {
      table: 'transactions',
      sql: `insert into transactions (id, platform_id, customer_id, type, status, internal_account_id, source_account_id, destination_account_id, reference,
          failure_reason, settled_at, cancellation_reason, amount, currency, details, created_at, updated_at)
        select ${grownId('Transaction', 't', 'i')}, ${platform}, ${customerOf()}, k.type, k.status, ${internalOf()},
          case when k.type = 'INCOMING' then ${externalOf()} else ${internalOf()} end,
          case when k.type = 'INCOMING' then ${internalOf()} else ${externalOf()} end,
          'grown-' || i, case when k.status = 'FAILED' then 'BANK_REJECTED' end,
          case when k.status = 'COMPLETED' then ${at()} end, null, 100 + i % 10000, 'USD',
          case when k.type = 'INCOMING' then inbound.details else outbound.details end, ${at()}, ${at()}
        from generate_series(1, ${missing('transactions')}) i
          cross join lateral (select case when i % 2 = 0 then 'INCOMING' else 'OUTGOING' end as type,
            case when i % 100 < 89 then 'COMPLETED' when i % 100 < 94 then 'PENDING' when i % 100 < 96 then 'PROCESSING' when i % 100 < 99 then 'FAILED' else 'CANCELLED' end as status) k,
          (select details from transactions where customer_id = ${lit(world.customer.id)} and type = 'INCOMING' limit 1) inbound,
          (select details from transactions where customer_id = ${lit(world.customer.id)} and type = 'OUTGOING' limit 1) outbound`,
    },
    {
      table: 'verifications',
      sql: `insert into verifications (id, platform_id, customer_id, verification_status, errors, created_at, updated_at)
        select ${grownId('Verification', 'v', 'i')}, ${platform}, ${customerOf()},
          (array['APPROVED', 'APPROVED', 'APPROVED', 'IN_PROGRESS', 'RESOLVE_ERRORS', 'APPROVED', 'PENDING_MANUAL_REVIEW', 'APPROVED', 'REJECTED', 'APPROVED'])[1 + i % 10],
          '[]', ${at()}, ${at()}
        from generate_series(1, ${missing('verifications')}) i`,
    },
    {
      table: 'documents',
      // A one-byte file: lists never read the content, and a million copies of the seed's would fill the disk.
      sql: `insert into documents (id, platform_id, customer_id, document_holder, document_type, side, country, document_number, issuing_authority,
          file_name, content_type, size_bytes, content, submitted, created_at, updated_at)
        select ${grownId('Document', 'd', 'i')}, ${platform}, ${customerOf()}, ${customerOf()}, d.document_type, d.side, d.country, d.document_number,
          d.issuing_authority, d.file_name, d.content_type, 1, '\\x25'::bytea, false, ${at()}, ${at()}
        from generate_series(1, ${missing('documents')}) i,
          (select * from documents where document_holder = ${lit(world.customer.id)} limit 1) d`,
    },
    {
      table: 'beneficial_owners',
      sql: `insert into beneficial_owners (id, platform_id, customer_id, roles, ownership_percentage, personal_info, identifier, kyc_status, created_at, updated_at)
        select ${grownId('BeneficialOwner', 'b', 'i')}, ${platform}, ${customerOf()}, o.roles, o.ownership_percentage, o.personal_info, o.identifier,
          o.kyc_status, ${at()}, ${at()}
        from generate_series(1, ${missing('beneficial_owners')}) i,
          (select * from beneficial_owners where id = ${lit(world.business.ownerId)}) o`,
    },
    {
      table: 'api_tokens',
      sql: `insert into api_tokens (id, platform_id, name, permissions, client_id, secret_hash, created_at, updated_at, deleted_at)
        select ${grownId('Token', 'k', 'i')}, ${platform}, 'grown token ' || i % 1000, '{VIEW}', 'grown-' || i, t.secret_hash, ${at()}, ${updated},
          case when i % 20 = 0 then ${at()} end
        from generate_series(1, ${missing('api_tokens')}) i,
          (select secret_hash from api_tokens where name = ${lit(world.tokenName)} limit 1) t`,
    },
    {
      table: 'agents',
      sql: `insert into agents (id, platform_id, customer_id, name, is_paused, policy, access_token_hash, connected_at, deleted_at, created_at, updated_at)
        select ${grownId('Agent', 'ag', 'i')}, ${platform}, ${customerOf()}, 'Grown agent ' || i, i % 10 = 0, a.policy, null,
          case when i % 2 = 0 then ${at()} end, case when i % 50 = 0 then ${at()} end, ${at()}, ${updated}
        from generate_series(1, ${missing('agents')}) i,
          (select policy from agents where id = ${lit(world.agent.id)}) a`,
    },
    {
      table: 'agent_actions',
      // Actions of grown agents only: the seed agent's list keeps its own few at every size.
      sql: `insert into agent_actions (id, platform_id, agent_id, customer_id, type, status, quote_id, transfer, transaction_id, counted_amount,
          rejection_reason, created_at, updated_at)
        select ${grownId('AgentAction', 'aa', 'i')}, ${platform}, ${agentOf()}, ${customerOf()}, a.type,
          (array['APPROVED', 'APPROVED', 'APPROVED', 'PENDING_APPROVAL', 'REJECTED', 'APPROVED', 'FAILED', 'APPROVED'])[1 + i % 8],
          null, a.transfer, null, a.counted_amount, null, ${at()}, ${at()}
        from generate_series(1, ${missing('agent_actions')}) i,
          (select * from agent_actions where agent_id = ${lit(world.agent.id)} limit 1) a`,
    },
    {
      table: 'wallet_sessions',
      // Sessions of the grown accounts, half of them expired; the seed wallet's own three stay
      // alive through the run (a session lasts 15 minutes, growing a million rows takes longer).
      sql: `with grown as (insert into wallet_sessions (id, platform_id, account_id, credential_id, client_public_key, expires_at, revoked_at, created_at)
          select md5('ws' || i)::uuid::text, ${platform}, ${internalOf()}, ${lit(world.wallet.credentialId)}, s.client_public_key,
            case when i % 2 = 0 then ${seed} + interval '1 day' else ${at()} + interval '15 minutes' end, null, ${at()}
          from generate_series(1, ${missing('wallet_sessions')}) i,
            (select client_public_key from wallet_sessions where account_id = ${lit(world.wallet.accountId)} limit 1) s
          returning 1)
        update wallet_sessions set expires_at = ${seed} + interval '1 day' where account_id = ${lit(world.wallet.accountId)}`,
    },
  ];
}

/** Grows every table, then updates the planner's statistics and the visibility map (as autovacuum would after such a load). */
export async function grow(db: Sql, world: World, rows: number, say: (line: string) => void = () => {}): Promise<void> {
  for (const { table, sql } of growthStatements(world, rows)) {
    const started = performance.now();
    await db.query(sql);
    say(`  ${table}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const started = performance.now();
  await db.query('vacuum analyze');
  say(`  vacuum analyze: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
