// The server's queries run as named prepared statements (server/db/prepared-statements.ts): each
// text is parsed once per connection, and a schema change under a prepared `select *` fails no
// query outside a transaction, and no transaction run the way the server runs them (again once).
// Driven directly on a migrated database of this file's own: PGlite in memory, or PostgreSQL.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { againIfStalePlan } from '../../server/db/prepared-statements.ts';
import type { Database } from '../../server/db/schema.ts';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const runsOn = hasOwnDatabase;
const own = ownDatabase('prepareddb', async (db) => {
  await sql`create table prepared_probe (id int primary key, a text not null)`.execute(db);
  await sql`insert into prepared_probe (id, a) values (1, 'one')`.execute(db);
});

// Untyped: the probe table is this file's own, not the server's schema.
const probe = (tx: Kysely<Database>, id: number) => sql<Record<string, unknown>>`select * from prepared_probe where id = ${id}`.execute(tx);
const preparedCount = (tx: Kysely<Database>) => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%prepared_probe%'`.execute(tx);

describe.runIf(runsOn)('named prepared statements', () => {
  it('prepares a query once per connection and reuses it', async () => {
    await own.db.transaction().execute(async (tx) => {
      const before = (await preparedCount(tx)).rows[0]?.n ?? 0;
      for (let i = 0; i < 3; i++) expect((await probe(tx, 1)).rows).toEqual([{ id: 1, a: 'one' }]);
      const after = (await preparedCount(tx)).rows[0]?.n ?? 0;
      // Prepared at most once on this connection (zero more if an earlier test prepared it here).
      expect(after - before).toBeLessThanOrEqual(1);
      expect(after).toBeGreaterThanOrEqual(1);
    });
  });

  it('survives a column added under a prepared select *: at once outside a transaction, by running it again inside one', async () => {
    // Prepare the statement on every pooled connection the following queries may get.
    await Promise.all(Array.from({ length: 10 }, () => probe(own.db, 1)));
    await sql`alter table prepared_probe add column b text not null default 'bee'`.execute(own.db);
    // Outside a transaction: sent again under a new name, on whichever connection it ran.
    const rows = await Promise.all(Array.from({ length: 10 }, () => probe(own.db, 1)));
    for (const r of rows) expect(r.rows).toEqual([{ id: 1, a: 'one', b: 'bee' }]);

    await sql`alter table prepared_probe add column c int not null default 3`.execute(own.db);
    // Inside transactions, on every pooled connection at once: the first to meet the old plan
    // renames the process's statements, and a transaction that met it runs once more.
    const inTransaction = () => againIfStalePlan(() => own.db.transaction().execute(async (tx) => (await probe(tx, 1)).rows));
    const results = await Promise.all(Array.from({ length: 10 }, inTransaction));
    for (const rows of results) expect(rows).toEqual([{ id: 1, a: 'one', b: 'bee', c: 3 }]);
  });

  it('runs a transaction again only for a stale plan, and only once', async () => {
    /** How many times againIfStalePlan runs an attempt that always fails with `err` (which it must pass on). */
    const attemptsFailingWith = async (err: Error) => {
      let attempts = 0;
      const failing = async () => {
        attempts += 1;
        throw err;
      };
      await expect(againIfStalePlan(failing)).rejects.toBe(err);
      return attempts;
    };
    expect(await attemptsFailingWith(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }))).toBe(2);
    expect(await attemptsFailingWith(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(1);
  });
});
