// The counts lists keep in the database (migration 0018, server/db/paginate.ts), driven directly on
// a migrated database of this file's own (PGlite in memory, or PostgreSQL) where thousands of rows
// take a statement: a list's total equals a count of its rows after bulk inserts, updates, deletes
// and a TRUNCATE; a time bound is counted right from either end and from the middle of a long
// list; and on PostgreSQL, writers of the same list never wait for one another's commit, and many
// of them at once, some rolling back, leave every count exact.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { listCustomers } from '../../server/customers/customers.repository.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/schema.ts';
import { listDocuments } from '../../server/documents/documents.repository.ts';
import { listTokens } from '../../server/tokens/tokens.repository.ts';
import { listTransactions, type TransactionFilters } from '../../server/transactions/transactions.repository.ts';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const own = ownDatabase('listcountsdb', async (db) => void (await migrateToLatest(db)));
const FIRST_PAGE = { limit: 20, after: undefined, filterDigest: '' };
const START = new Date('2026-01-01T00:00:00.000Z');
const minutes = (n: number) => new Date(START.getTime() + n * 60_000);

async function newPlatform(db: Kysely<Database>): Promise<string> {
  const platformId = `PlatformConfig:${randomBytes(8).toString('hex')}`;
  await sql`insert into platforms (id, name, uma_domain, created_at, updated_at) values (${platformId}, 'Counts', 'counts.test', ${START}, ${START})`.execute(db);
  return platformId;
}

/** `n` rows of each kind on a new platform, in one statement each: a minute apart from START. */
async function grownPlatform(db: Kysely<Database>, n: number): Promise<{ platformId: string; customerId: string }> {
  const platformId = await newPlatform(db);
  const customerId = `Customer:${randomBytes(8).toString('hex')}`;
  await sql`insert into customers (id, platform_id, platform_customer_id, customer_type, region, currencies, uma_address, kyc_status, profile, created_at, updated_at)
    values (${customerId}, ${platformId}, ${customerId}, 'INDIVIDUAL', 'US', '{USD}', ${`$${customerId.slice(9)}@counts.test`}, 'APPROVED', '{}', ${START}, ${START})`.execute(db);
  await sql`insert into api_tokens (id, platform_id, name, permissions, client_id, secret_hash, created_at, updated_at, deleted_at)
    select 'Token:' || md5(${platformId} || i)::uuid, ${platformId}, 'token ' || i % 7, '{VIEW}', md5(${platformId} || 'c' || i), '\\x00'::bytea,
      ${START}::timestamptz + i * interval '1 minute', ${START}::timestamptz + i * interval '1 minute', case when i % 10 = 0 then now() end
    from generate_series(1, ${n}) i`.execute(db);
  await sql`insert into transactions (id, platform_id, customer_id, type, status, amount, currency, details, created_at, updated_at)
    select 'Transaction:' || md5(${platformId} || i)::uuid, ${platformId}, ${customerId}, case when i % 2 = 0 then 'INCOMING' else 'OUTGOING' end,
      (array['COMPLETED', 'PENDING', 'FAILED'])[1 + i % 3], 100, 'USD', '{}', ${START}::timestamptz + i * interval '1 minute', ${START}::timestamptz + i * interval '1 minute'
    from generate_series(1, ${n}) i`.execute(db);
  return { platformId, customerId };
}

class RolledBack extends Error {}

const count = async (db: Kysely<Database>, query: RawBuilder<{ n: string }>) => Number((await query.execute(db)).rows[0]?.n);
const transactionsTotal = async (db: Kysely<Database>, platformId: string, f: Omit<TransactionFilters, 'order'>) =>
  (await listTransactions(db, platformId, { ...f, order: 'desc' }, FIRST_PAGE)).total;

describe.runIf(hasOwnDatabase)('list counts kept in the database', () => {
  it('a time bound is counted right from either end and from the middle of a long list', async () => {
    // More rows than the probes read (paginate.ts), even of one status: every way of counting is taken.
    const { platformId } = await grownPlatform(own.db, 3500);
    // Before the first row, near each end (a few rows on one side), the middle (many on both), after the last.
    for (const at of [-5, 3, 40, 1750, 3470, 3497, 4000]) {
      const t = minutes(at).toISOString();
      const live = (where: RawBuilder<unknown>) =>
        count(own.db, sql<{ n: string }>`select count(*) as n from api_tokens where platform_id = ${platformId} and deleted_at is null and ${where}`);
      expect((await listTokens(own.db, platformId, { createdBefore: t }, FIRST_PAGE)).total, `createdBefore ${at}`).toBe(await live(sql`created_at <= ${t}`));
      expect((await listTokens(own.db, platformId, { createdAfter: t }, FIRST_PAGE)).total, `createdAfter ${at}`).toBe(await live(sql`created_at >= ${t}`));
      expect((await listTokens(own.db, platformId, { updatedBefore: t }, FIRST_PAGE)).total, `updatedBefore ${at}`).toBe(await live(sql`updated_at <= ${t}`));
      const failedBy = await count(own.db, sql<{ n: string }>`select count(*) as n from transactions where platform_id = ${platformId} and status = 'FAILED' and created_at <= ${t}`);
      expect(await transactionsTotal(own.db, platformId, { status: 'FAILED', endDate: t }), `FAILED endDate ${at}`).toBe(failedBy);
      const since = await count(own.db, sql<{ n: string }>`select count(*) as n from transactions where platform_id = ${platformId} and created_at >= ${t}`);
      expect(await transactionsTotal(own.db, platformId, { startDate: t }), `startDate ${at}`).toBe(since);
    }
  });

  it('totals follow bulk inserts, updates and deletes, and a TRUNCATE', async () => {
    const { platformId, customerId } = await grownPlatform(own.db, 600);
    const byStatus = async () => {
      const out: Record<string, number> = {};
      for (const status of ['COMPLETED', 'PENDING', 'FAILED', 'CANCELLED'] as const) out[status] = await transactionsTotal(own.db, platformId, { status });
      return out;
    };
    expect(await byStatus()).toEqual({ COMPLETED: 200, PENDING: 200, FAILED: 200, CANCELLED: 0 });
    // One statement moving many rows (a row trigger each), and one changing no counted column.
    await sql`update transactions set status = 'CANCELLED' where platform_id = ${platformId} and status = 'PENDING' and created_at < ${minutes(301)}`.execute(own.db);
    await sql`update transactions set updated_at = now() where platform_id = ${platformId}`.execute(own.db);
    expect(await byStatus()).toEqual({ COMPLETED: 200, PENDING: 100, FAILED: 200, CANCELLED: 100 });
    expect(await transactionsTotal(own.db, platformId, {})).toBe(600);

    // Soft deletes (an update) and hard deletes (a statement of many rows).
    expect((await listTokens(own.db, platformId, {}, FIRST_PAGE)).total).toBe(540);
    await sql`update api_tokens set deleted_at = now() where platform_id = ${platformId} and name = 'token 1' and deleted_at is null`.execute(own.db);
    const liveTokens = await count(own.db, sql<{ n: string }>`select count(*) as n from api_tokens where platform_id = ${platformId} and deleted_at is null`);
    expect((await listTokens(own.db, platformId, {}, FIRST_PAGE)).total).toBe(liveTokens);
    await sql`insert into documents (id, platform_id, customer_id, document_holder, document_type, country, file_name, content_type, size_bytes, content, created_at, updated_at)
      select 'Document:' || md5(${platformId} || i)::uuid, ${platformId}, ${customerId}, ${customerId}, 'PASSPORT', 'US', 'p.pdf', 'application/pdf', 1, '\\x25'::bytea, ${START}, ${START}
      from generate_series(1, 50) i`.execute(own.db);
    await sql`delete from documents where platform_id = ${platformId} and id in (select id from documents where platform_id = ${platformId} limit 20)`.execute(own.db);
    expect((await listDocuments(own.db, platformId, {}, FIRST_PAGE)).total).toBe(30);

    // Customers: deleted, and a currency more (kept without the deleted ones, and with them).
    await sql`update customers set currencies = '{USD,EUR}' where id = ${customerId}`.execute(own.db);
    expect((await listCustomers(own.db, platformId, { currency: 'EUR' }, FIRST_PAGE)).total).toBe(1);
    await sql`update customers set is_deleted = true where id = ${customerId}`.execute(own.db);
    expect((await listCustomers(own.db, platformId, { currency: 'EUR' }, FIRST_PAGE)).total).toBe(0);
    expect((await listCustomers(own.db, platformId, { currency: 'EUR', isIncludingDeleted: true }, FIRST_PAGE)).total).toBe(1);

    // A TRUNCATE empties the table, and its counts with it.
    await sql`truncate documents`.execute(own.db);
    expect((await listDocuments(own.db, platformId, {}, FIRST_PAGE)).total).toBe(0);
  });

  it.runIf(target === 'postgres')('concurrent writers inserting, moving and deleting rows, some rolling back, leave every count exact', async () => {
    const { platformId, customerId } = await grownPlatform(own.db, 400);
    const statuses = ['COMPLETED', 'PENDING', 'FAILED', 'CANCELLED'] as const;
    const types = ['INCOMING', 'OUTGOING'] as const;
    const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)] as T;
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    const writers = 8;
    let serial = 0;
    let rolledBack = 0;
    // Each writer moves and deletes only grown rows of its own (i % writers) and the rows it
    // inserted, so that no two wait on one row of the table: what they share is the counts.
    const writer = async (w: number) => {
      const mine = Array.from({ length: 400 / writers }, (_, k) => k * writers + w + 1);
      for (let round = 0; round < 25; round++) {
        await own.db
          .transaction()
          .execute(async (tx) => {
            const inserted = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => `Transaction:w${w}-${serial++}-${randomBytes(4).toString('hex')}`);
            await sql`insert into transactions (id, platform_id, customer_id, type, status, amount, currency, details, created_at, updated_at)
              select x.id, ${platformId}, ${customerId}, ${pick(types)}, ${pick(statuses)}, 100, 'USD', '{}', now(), now() from unnest(${inserted}::text[]) x(id)`.execute(tx);
            await pause();
            await sql`update transactions set status = ${pick(statuses)}, type = ${pick(types)}
              where platform_id = ${platformId} and id in (select 'Transaction:' || md5(${platformId} || i)::uuid from unnest(${mine.slice(round % 5, round % 5 + 3)}::int[]) i)`.execute(tx);
            await pause();
            await sql`delete from transactions where id = (select id from transactions where platform_id = ${platformId} and id like ${`Transaction:w${w}-%`} order by random() limit 1)`.execute(tx);
            if (Math.random() < 0.25) throw new RolledBack();
          })
          .catch((err: unknown) => {
            if (!(err instanceof RolledBack)) throw err;
            rolledBack += 1;
          });
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    expect(rolledBack).toBeGreaterThan(0);
    const real = async (where: RawBuilder<boolean>) =>
      count(own.db, sql<{ n: string }>`select count(*) as n from transactions where platform_id = ${platformId} and ${where}`);
    expect(await transactionsTotal(own.db, platformId, {})).toBe(await real(sql<boolean>`true`));
    for (const status of statuses) expect(await transactionsTotal(own.db, platformId, { status }), status).toBe(await real(sql<boolean>`status = ${status}`));
    for (const type of types) expect(await transactionsTotal(own.db, platformId, { type }), type).toBe(await real(sql<boolean>`type = ${type}`));
    // The writers added to rows of their own: a count is spread over more than one row.
    const spread = await count(own.db, sql<{ n: string }>`select max(k.rows) as n from (select count(*) as rows from list_counts where platform_id = ${platformId} and list = 'transactions' group by key) k`);
    expect(spread).toBeGreaterThan(1);
  });

  it.runIf(target === 'postgres')('writers of one list never wait for one another: no counter row is held until a commit', async () => {
    const platformId = await newPlatform(own.db);
    const insertCustomer = (db: Kysely<Database>, i: number) =>
      sql`insert into customers (id, platform_id, platform_customer_id, customer_type, region, currencies, uma_address, profile, created_at, updated_at)
        values (${`Customer:${randomBytes(8).toString('hex')}`}, ${platformId}, ${`w${i}`}, 'INDIVIDUAL', 'US', '{USD}', ${`$w${i}${randomBytes(4).toString('hex')}@counts.test`}, '{}', ${START}, ${START})`.execute(db);
    // The counts' rows exist (a first customer, committed); then five transactions each insert a
    // customer of the same platform, region and currency (the same counts), and all of them stay
    // open until the last one has inserted.
    await insertCustomer(own.db, -1);
    const writers = 5;
    let inserted = 0;
    let release = () => {};
    const allIn = new Promise<void>((resolve) => (release = resolve));
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        own.db.transaction().execute(async (tx) => {
          await insertCustomer(tx, i);
          inserted += 1;
          if (inserted === writers) release();
          // A writer waiting on another's counter row would never get here: the others wait for it.
          await Promise.race([allIn, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${inserted} of ${writers} writers got in`)), 10_000))]);
        }),
      ),
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await listCustomers(own.db, platformId, { region: 'US' }, FIRST_PAGE)).total).toBe(writers + 1);
    expect((await listCustomers(own.db, platformId, {}, FIRST_PAGE)).total).toBe(writers + 1);
  });
});
