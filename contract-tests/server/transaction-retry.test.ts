// A transaction PostgreSQL rolled back for a deadlock or a serialization failure runs again
// (server/db/transaction-retry.ts), as every request's and job's transaction is run: two
// transactions locking two rows in opposite orders both commit, where run plainly one of them
// fails with 40P01. Driven directly on a database of this file's own.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { retryTransaction, TRANSACTION_RETRIES } from '../../server/db/transaction-retry.ts';
import { target } from '../support/api.ts';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const own = ownDatabase('retrydb', async (db) => {
  await sql`create table retry_probe (id int primary key, n int not null)`.execute(db);
  await sql`insert into retry_probe (id, n) values (1, 0), (2, 0)`.execute(db);
});

const bump = (tx: Kysely<Database>, id: number) => sql`update retry_probe set n = n + 1 where id = ${id}`.execute(tx);

/**
 * Two transactions, one bumping row 1 then 2, the other 2 then 1, each waiting on its first
 * attempt until both hold their first row: a deadlock, which PostgreSQL breaks by failing one.
 */
async function crossedUpdates(run: <T>(attempt: () => Promise<T>) => Promise<T>): Promise<PromiseSettledResult<unknown>[]> {
  let holding = 0;
  let release = () => {};
  const bothHold = new Promise<void>((resolve) => (release = resolve));
  const crossed = (first: number, second: number) => {
    let attempts = 0;
    return run(() =>
      own.db.transaction().execute(async (tx) => {
        await bump(tx, first);
        if (attempts++ === 0) {
          if (++holding === 2) release();
          await bothHold;
        }
        await bump(tx, second);
      }),
    );
  };
  return Promise.allSettled([crossed(1, 2), crossed(2, 1)]);
}

const counts = async () => (await sql<{ id: number; n: number }>`select id, n from retry_probe order by id`.execute(own.db)).rows.map((r) => r.n);

describe.runIf(hasOwnDatabase)('transactions that meet a deadlock', () => {
  it.runIf(target === 'postgres')('run plainly, one of two crossed transactions fails with 40P01', async () => {
    const before = await counts();
    const results = await crossedUpdates((attempt) => attempt());
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(((failed[0] as PromiseRejectedResult).reason as { code?: string }).code).toBe('40P01');
    expect(await counts()).toEqual(before.map((n) => n + 1));
  });

  it.runIf(target === 'postgres')('run through retryTransaction, both commit, each once', async () => {
    const before = await counts();
    const results = await crossedUpdates(retryTransaction);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await counts()).toEqual(before.map((n) => n + 2));
  });

  it('runs again only for a deadlock, a serialization failure or a stale plan, a bounded number of times', async () => {
    const attemptsFailingWith = async (code: string) => {
      let attempts = 0;
      const err = Object.assign(new Error(code), { code });
      await expect(
        retryTransaction(async () => {
          attempts += 1;
          throw err;
        }),
      ).rejects.toBe(err);
      return attempts;
    };
    expect(await attemptsFailingWith('40P01')).toBe(TRANSACTION_RETRIES + 1);
    expect(await attemptsFailingWith('40001')).toBe(TRANSACTION_RETRIES + 1);
    expect(await attemptsFailingWith('23505')).toBe(1);
    expect(await attemptsFailingWith('57P01')).toBe(1);
  });
});
