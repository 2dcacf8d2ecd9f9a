// Lists whose pages cost the same at any size of their table (db/paginate.ts).
//
// `list_counts` holds, per platform, how many rows each list has unfiltered and with each filter
// that can match a share of the table (a status, a type, a currency), kept by triggers in the
// writer's own transaction: the first page of such a list reads its totalCount here instead of
// counting its matches. A key is the list's scope and at most one filter, `name=value` pairs
// joined by `&` in a fixed order (`is_deleted=false&region=GB`); paginate.ts builds the same
// strings from the request's filters. Filters that name one thing (a customer, an account) and time
// windows are not kept: their matches are counted, through an index, at the cost of the matches.
//
// A key has several rows whose sum is the count. A writer adds its change to one of them that no
// other open transaction holds (FOR UPDATE SKIP LOCKED), or to a new row when all are held, so
// concurrent writers never wait on one another for a count and no counter row is a hot spot (nor
// can two writers deadlock on them): a key has about as many rows as it ever had writers at once.
//
// Inserts are counted per statement (a bulk load of a million rows is one aggregate per key),
// updates per row and only when a counted column changed (the ledger's balance updates cost
// nothing here), deletes per statement; a TRUNCATE forgets the table's counts.
//
// The indexes serve each filter's page in keyset order (the filter, then created_at and id), so a
// page reads its own rows whatever the share of the table the filter matches, and the counted
// filters (a customer's transactions, a document holder's documents) count their matches by index.
import { type Kysely, sql } from 'kysely';

/** How a table's rows are counted: for a row `r`, the SQL of the set of keys it counts under (a `select ... as key`). */
export interface Counted {
  table: string;
  /** The keys of the row aliased `r`. */
  keys: (r: string) => string;
  /** An update changes the row's keys only when one of these changes. */
  columns: string[];
}

/** `scope` pairs (each key starts with one of them, '' for none) times `pairs` ('' for the scope alone); null pairs are none. */
export const keysOf = (scopes: string, pairs: string) => `select distinct case when s.v = '' then d.v when d.v = '' then s.v else s.v || '&' || d.v end as key
  from unnest(${scopes}) s(v), unnest(${pairs}) d(v) where s.v is not null and d.v is not null`;

export const COUNTED: Counted[] = [
  {
    table: 'customers',
    // Listed without the deleted ones unless isIncludingDeleted: both scopes are kept.
    keys: (r) =>
      keysOf(
        `array['', 'is_deleted=' || ${r}.is_deleted]`,
        `array['', 'customer_type=' || ${r}.customer_type, 'region=' || ${r}.region, 'kyc_status=' || ${r}.kyc_status, 'kyb_status=' || ${r}.kyb_status]
          || array(select 'currency=' || c from unnest(${r}.currencies) c)`,
      ),
    columns: ['is_deleted', 'customer_type', 'region', 'kyc_status', 'kyb_status', 'currencies'],
  },
  {
    table: 'transactions',
    keys: (r) => keysOf(`array['']`, `array['', 'status=' || ${r}.status, 'type=' || ${r}.type]`),
    columns: ['status', 'type'],
  },
  {
    table: 'verifications',
    keys: (r) => keysOf(`array['']`, `array['', 'verification_status=' || ${r}.verification_status]`),
    columns: ['verification_status'],
  },
  { table: 'beneficial_owners', keys: () => `select '' as key`, columns: [] },
  { table: 'documents', keys: () => `select '' as key`, columns: [] },
  {
    table: 'internal_accounts',
    // The customers' accounts and the platform's own are two lists.
    keys: (r) => keysOf(`array['customer_owned=' || (${r}.customer_id is not null)]`, `array['', 'currency=' || ${r}.currency, 'type=' || ${r}.type]`),
    columns: ['customer_id', 'currency', 'type'],
  },
  {
    table: 'external_accounts',
    // Listed unfiltered or by currency in every status but INACTIVE (a deleted account), or by one status alone.
    keys: (r) =>
      keysOf(
        `array['customer_owned=' || (${r}.customer_id is not null)]`,
        `array[case when ${r}.status <> 'INACTIVE' then '' end, case when ${r}.status <> 'INACTIVE' then 'currency=' || ${r}.currency end, 'status=' || ${r}.status]`,
      ),
    columns: ['status', 'customer_id', 'currency'],
  },
  { table: 'api_tokens', keys: (r) => `select '' as key where ${r}.deleted_at is null`, columns: ['deleted_at'] },
  {
    table: 'agents',
    keys: (r) =>
      keysOf(
        `array[case when ${r}.deleted_at is null then '' end]`,
        `array['', 'is_paused=' || ${r}.is_paused, 'is_connected=' || (${r}.connected_at is not null)]`,
      ),
    columns: ['deleted_at', 'is_paused', 'connected_at'],
  },
];

/** Each filter's keyset index: [name, table, columns, partial predicate]. */
const INDEXES: [string, string, string, string?][] = [
  ['customers_platform_type', 'customers', 'platform_id, customer_type, created_at, id'],
  ['customers_platform_region', 'customers', 'platform_id, region, created_at, id'],
  ['customers_platform_kyc', 'customers', 'platform_id, kyc_status, created_at, id'],
  ['customers_platform_kyb', 'customers', 'platform_id, kyb_status, created_at, id'],
  ['customers_platform_updated', 'customers', 'platform_id, updated_at'],
  ['transactions_platform_status', 'transactions', 'platform_id, status, created_at, id'],
  ['transactions_platform_type', 'transactions', 'platform_id, type, created_at, id'],
  ['verifications_platform_status', 'verifications', 'platform_id, verification_status, created_at, id'],
  ['documents_platform_holder', 'documents', 'platform_id, document_holder, created_at, id'],
  ['internal_accounts_customer', 'internal_accounts', 'customer_id, created_at, id'],
  ['internal_accounts_platform_currency', 'internal_accounts', 'platform_id, currency, created_at, id'],
  ['internal_accounts_platform_type', 'internal_accounts', 'platform_id, type, created_at, id'],
  ['internal_accounts_platform_own', 'internal_accounts', 'platform_id, created_at, id', 'customer_id is null'],
  ['external_accounts_customer', 'external_accounts', 'customer_id, created_at, id'],
  ['external_accounts_platform_currency', 'external_accounts', 'platform_id, currency, created_at, id', "status <> 'INACTIVE'"],
  ['external_accounts_platform_own', 'external_accounts', 'platform_id, created_at, id', "customer_id is null and status <> 'INACTIVE'"],
  ['external_accounts_platform_status', 'external_accounts', 'platform_id, status, created_at, id'],
  ['external_accounts_platform_own_status', 'external_accounts', 'platform_id, status, created_at, id', 'customer_id is null'],
  ['api_tokens_platform_name', 'api_tokens', 'platform_id, name, created_at, id', 'deleted_at is null'],
  ['api_tokens_platform_updated', 'api_tokens', 'platform_id, updated_at', 'deleted_at is null'],
  ['agents_customer', 'agents', 'customer_id, created_at, id', 'deleted_at is null'],
  ['agents_platform_paused', 'agents', 'platform_id, is_paused, created_at, id', 'deleted_at is null'],
  ['agents_platform_connected', 'agents', 'platform_id, (connected_at is not null), created_at, id', 'deleted_at is null'],
  ['agents_platform_updated', 'agents', 'platform_id, updated_at', 'deleted_at is null'],
];

/**
 * The functions and triggers that keep `c.table`'s counts, and its counts of the rows already
 * there. A later migration that counts another filter of a table calls it again with the table's
 * new keys: it replaces the table's triggers and counts the table afresh, writers held off meanwhile.
 */
export async function countRows(db: Kysely<unknown>, c: Counted): Promise<void> {
  const { table } = c;
  const list = `'${table}'`;
  await sql.raw(`lock table ${table} in share row exclusive mode`).execute(db);
  for (const event of ['insert', 'update', 'delete', 'truncate']) await sql.raw(`drop trigger if exists ${table}_counted_${event} on ${table}`).execute(db);
  await sql.raw(`create or replace function ${table}_counted_insert() returns trigger language plpgsql as $$
    begin
      perform list_count_add(a.platform_id, ${list}, k.key, count(*)) from added a cross join lateral (${c.keys('a')}) k group by a.platform_id, k.key;
      return null;
    end $$`).execute(db);
  await sql.raw(`create or replace function ${table}_counted_delete() returns trigger language plpgsql as $$
    begin
      perform list_count_add(a.platform_id, ${list}, k.key, -count(*)) from removed a cross join lateral (${c.keys('a')}) k group by a.platform_id, k.key;
      return null;
    end $$`).execute(db);
  await sql.raw(`create trigger ${table}_counted_insert after insert on ${table} referencing new table as added
    for each statement execute function ${table}_counted_insert()`).execute(db);
  await sql.raw(`create trigger ${table}_counted_delete after delete on ${table} referencing old table as removed
    for each statement execute function ${table}_counted_delete()`).execute(db);
  if (c.columns.length > 0) {
    await sql.raw(`create or replace function ${table}_counted_update() returns trigger language plpgsql as $$
      begin
        perform list_count_add(new.platform_id, ${list}, d.key, sum(d.n)) from (
          select k.key, 1 as n from (${c.keys('new')}) k union all select k.key, -1 from (${c.keys('old')}) k
        ) d group by d.key having sum(d.n) <> 0;
        return null;
      end $$`).execute(db);
    const changed = c.columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
    await sql.raw(`create trigger ${table}_counted_update after update on ${table}
      for each row when (${changed}) execute function ${table}_counted_update()`).execute(db);
  }
  await sql.raw(`create trigger ${table}_counted_truncate after truncate on ${table}
    for each statement execute function list_counts_forget(${list})`).execute(db);
  await sql.raw(`delete from list_counts where list = ${list}`).execute(db);
  await sql.raw(`insert into list_counts (platform_id, list, key, n)
    select r.platform_id, ${list}, k.key, count(*) from ${table} r cross join lateral (${c.keys('r')}) k group by r.platform_id, k.key`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('list_counts')
    .addColumn('id', 'int8', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    // The table whose rows are counted.
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('n', 'int8', (c) => c.notNull())
    .execute();
  await sql`create index list_counts_key on list_counts (platform_id, list, key) include (n)`.execute(db);
  await sql`create function list_count_add(p_platform text, p_list text, p_key text, p_delta bigint) returns void language plpgsql as $$
    declare
      target bigint;
    begin
      select id into target from list_counts where platform_id = p_platform and list = p_list and key = p_key limit 1 for update skip locked;
      if found then
        update list_counts set n = n + p_delta where id = target;
      else
        insert into list_counts (platform_id, list, key, n) values (p_platform, p_list, p_key, p_delta);
      end if;
    end $$`.execute(db);
  await sql`create function list_counts_forget() returns trigger language plpgsql as $$
    begin
      delete from list_counts where list = tg_argv[0];
      return null;
    end $$`.execute(db);
  for (const counted of COUNTED) await countRows(db, counted);
  for (const [name, table, columns, where] of INDEXES) {
    await sql.raw(`create index ${name} on ${table} (${columns})${where === undefined ? '' : ` where ${where}`}`).execute(db);
  }
  await customerCurrencies(db);
}

/**
 * A customer's currencies one per row, kept by triggers, in keyset order per platform and
 * currency: a list of the customers holding a currency reads its page here, whether a few of them
 * hold it or most (in the array, either would walk the list until it found a page of them).
 */
async function customerCurrencies(db: Kysely<unknown>): Promise<void> {
  await sql`create table customer_currencies (
    customer_id text not null references customers (id) on delete cascade,
    currency text not null,
    platform_id text not null,
    created_at timestamptz not null,
    primary key (customer_id, currency)
  )`.execute(db);
  await sql`create index customer_currencies_page on customer_currencies (platform_id, currency, created_at, customer_id)`.execute(db);
  await sql`create function customer_currencies_insert() returns trigger language plpgsql as $$
    begin
      insert into customer_currencies (customer_id, currency, platform_id, created_at)
        select distinct a.id, x, a.platform_id, a.created_at from added a cross join unnest(a.currencies) x;
      return null;
    end $$`.execute(db);
  await sql`create trigger customer_currencies_insert after insert on customers referencing new table as added
    for each statement execute function customer_currencies_insert()`.execute(db);
  await sql`create function customer_currencies_update() returns trigger language plpgsql as $$
    begin
      delete from customer_currencies where customer_id = new.id and not (currency = any (new.currencies));
      insert into customer_currencies (customer_id, currency, platform_id, created_at)
        select distinct new.id, x, new.platform_id, new.created_at from unnest(new.currencies) x on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger customer_currencies_update after update on customers
    for each row when (old.currencies is distinct from new.currencies) execute function customer_currencies_update()`.execute(db);
  await sql`insert into customer_currencies (customer_id, currency, platform_id, created_at)
    select distinct c.id, x, c.platform_id, c.created_at from customers c cross join unnest(c.currencies) x`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger customer_currencies_update on customers`.execute(db);
  await sql`drop trigger customer_currencies_insert on customers`.execute(db);
  await sql`drop function customer_currencies_update()`.execute(db);
  await sql`drop function customer_currencies_insert()`.execute(db);
  await sql`drop table customer_currencies`.execute(db);
  for (const [name] of INDEXES) await sql.raw(`drop index ${name}`).execute(db);
  for (const { table, columns } of COUNTED) {
    for (const event of ['insert', 'delete', 'truncate', ...(columns.length > 0 ? ['update'] : [])]) {
      await sql.raw(`drop trigger ${table}_counted_${event} on ${table}`).execute(db);
    }
    for (const event of ['insert', 'delete', ...(columns.length > 0 ? ['update'] : [])]) await sql.raw(`drop function ${table}_counted_${event}()`).execute(db);
  }
  await sql`drop function list_counts_forget()`.execute(db);
  await sql`drop function list_count_add(text, text, text, bigint)`.execute(db);
  await db.schema.dropTable('list_counts').execute();
}
