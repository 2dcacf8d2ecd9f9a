// The database itself refuses what the ledger's code could get wrong, whatever code writes to it:
// a negative balance (CHECK), a movement whose entries do not sum to zero (a deferred constraint
// trigger, at COMMIT), an edit or deletion of the ledger (append-only triggers), a second movement
// of one kind for one transaction (unique key). And the ledger check notices what the database
// cannot refuse: a balance changed behind the ledger's back, money held for a finished transaction.
// Driven directly on a migrated database of this file's own: PGlite in memory, or PostgreSQL.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/schema.ts';
import { checkLedger } from '../../server/ledger/ledger-check.ts';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const runsOn = hasOwnDatabase;
const own = ownDatabase('ledgerdb', async (db) => void (await migrateToLatest(db)));

const id = (prefix: string) => `${prefix}:${randomBytes(8).toString('hex')}`;
const at = new Date('2026-01-01T00:00:00.000Z');

/** The PostgreSQL error a statement (or a commit) fails with: its SQLSTATE, constraint and message. */
async function failure(work: Promise<unknown>): Promise<{ code: string; constraint?: string; message: string }> {
  try {
    await work;
  } catch (err) {
    const e = err as { code?: string; constraint?: string; message: string };
    return { code: e.code ?? 'none', constraint: e.constraint, message: e.message };
  }
  throw new Error('the statement succeeded; the database should have refused it');
}

async function newPlatform(): Promise<string> {
  const platformId = id('Platform');
  await sql`insert into platforms (id, name, uma_domain, created_at, updated_at) values (${platformId}, 'Ledger test', 'ledger.test', ${at}, ${at})`.execute(own.db);
  return platformId;
}

async function newTransaction(platformId: string, accountId: string, amount: number, status = 'COMPLETED', type = 'INCOMING'): Promise<string> {
  const transactionId = id('Transaction');
  await sql`insert into transactions (id, platform_id, type, status, internal_account_id, amount, currency, details, created_at, updated_at)
    values (${transactionId}, ${platformId}, ${type}, ${status}, ${accountId}, ${amount}, 'USD', '{}'::jsonb, ${at}, ${at})`.execute(own.db);
  return transactionId;
}

async function insertMovement(conn: Kysely<Database>, m: { platformId: string; transactionId: string; kind: string; amount: number; entries: [string, number][] }): Promise<string> {
  const movementId = id('Movement');
  await sql`insert into ledger_movements (id, platform_id, transaction_id, kind, currency, amount, created_at)
    values (${movementId}, ${m.platformId}, ${m.transactionId}, ${m.kind}, 'USD', ${m.amount}, ${at})`.execute(conn);
  for (const [account, amount] of m.entries) {
    await sql`insert into ledger_entries (movement_id, platform_id, account, amount, created_at) values (${movementId}, ${m.platformId}, ${account}, ${amount}, ${at})`.execute(conn);
  }
  return movementId;
}

/**
 * A platform's USD internal account holding `amount`, as the ledger would have left it: the balance,
 * the funding transaction and its FUND movement (sandbox funding → the account), in one commit.
 */
async function fundedAccount(amount: number) {
  const platformId = await newPlatform();
  const accountId = id('InternalAccount');
  await sql`insert into internal_accounts (id, platform_id, type, status, currency, balance, created_at, updated_at)
    values (${accountId}, ${platformId}, 'INTERNAL_FIAT', 'ACTIVE', 'USD', ${amount}, ${at}, ${at})`.execute(own.db);
  const transactionId = await newTransaction(platformId, accountId, amount);
  const movementId = await own.db.transaction().execute((trx) =>
    insertMovement(trx, { platformId, transactionId, kind: 'FUND', amount, entries: [['SYSTEM:SANDBOX_FUNDING:USD', -amount], [accountId, amount]] }),
  );
  return { platformId, accountId, transactionId, movementId };
}

const balance = async (accountId: string) => Number((await sql<{ balance: number }>`select balance from internal_accounts where id = ${accountId}`.execute(own.db)).rows[0]?.balance);
const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(own.db)).rows[0]?.n);

describe.skipIf(!runsOn)('the ledger, enforced by the database', () => {
  it('a balance can never go below zero (CHECK), whatever UPDATE tries', async () => {
    const { accountId } = await fundedAccount(100);
    const refused = await failure(sql`update internal_accounts set balance = balance - 101 where id = ${accountId}`.execute(own.db));
    expect(refused.code).toBe('23514'); // check_violation
    expect(refused.message).toContain('internal_accounts');
    expect((await failure(sql`update internal_accounts set balance = -1 where id = ${accountId}`.execute(own.db))).code).toBe('23514');
    expect(await balance(accountId)).toBe(100);
    // Down to exactly zero is allowed (and put back, so the ledger stays consistent for the other tests).
    await sql`update internal_accounts set balance = balance - 100 where id = ${accountId}`.execute(own.db);
    expect(await balance(accountId)).toBe(0);
    await sql`update internal_accounts set balance = 100 where id = ${accountId}`.execute(own.db);
  });

  it('a movement whose entries do not sum to zero is refused at COMMIT, and nothing of it stays', async () => {
    const { platformId, accountId } = await fundedAccount(500);
    const transactionId = await newTransaction(platformId, accountId, 100, 'COMPLETED', 'OUTGOING');
    const trx = await own.db.startTransaction().execute();
    // Each insert passes on its own: the check is deferred to the end of the transaction.
    const movementId = await insertMovement(trx, { platformId, transactionId, kind: 'SEND', amount: 100, entries: [[accountId, -100], ['SYSTEM:SETTLEMENT:USD', 99]] });
    const inside = await sql<{ n: number }>`select count(*) as n from ledger_entries where movement_id = ${movementId}`.execute(trx);
    expect(Number(inside.rows[0]?.n)).toBe(2);
    const refused = await failure(trx.commit().execute());
    // PostgreSQL has ended the transaction already; this only hands the connection back.
    await trx.rollback().execute().catch(() => undefined);
    expect(refused.code).toBe('23514');
    expect(refused.message).toBe(`ledger movement ${movementId} does not sum to zero`);
    expect(await count(sql<{ n: number }>`select count(*) as n from ledger_movements where id = ${movementId}`)).toBe(0);
    expect(await count(sql<{ n: number }>`select count(*) as n from ledger_entries where movement_id = ${movementId}`)).toBe(0);

    // The same movement, balanced, commits.
    const balanced = await own.db.transaction().execute((t) => insertMovement(t, { platformId, transactionId, kind: 'SEND', amount: 100, entries: [['SYSTEM:SETTLEMENT:USD', 100], [accountId, -100]] }));
    expect(await count(sql<{ n: number }>`select count(*) as n from ledger_entries where movement_id = ${balanced}`)).toBe(2);
    await sql`update internal_accounts set balance = balance - 100 where id = ${accountId}`.execute(own.db);
  });

  it('the ledger is append-only: UPDATE and DELETE of movements and entries fail, and change nothing', async () => {
    const { movementId, accountId } = await fundedAccount(700);
    const attempts = [
      sql`update ledger_entries set amount = amount * 2 where movement_id = ${movementId}`,
      sql`delete from ledger_entries where movement_id = ${movementId}`,
      sql`update ledger_movements set amount = 1 where id = ${movementId}`,
      sql`delete from ledger_movements where id = ${movementId}`,
      // Even a statement that would touch no row: the trigger is on the statement.
      sql`delete from ledger_entries where movement_id = 'Movement:none'`,
    ];
    for (const attempt of attempts) {
      const refused = await failure(attempt.execute(own.db));
      expect(refused).toMatchObject({ code: '42501', message: 'the ledger is append-only' });
    }
    const entries = await sql<{ account: string; amount: number }>`select account, amount from ledger_entries where movement_id = ${movementId} order by amount`.execute(own.db);
    expect(entries.rows.map((r) => ({ account: r.account, amount: Number(r.amount) }))).toEqual([
      { account: 'SYSTEM:SANDBOX_FUNDING:USD', amount: -700 },
      { account: accountId, amount: 700 },
    ]);
    expect(await count(sql<{ n: number }>`select amount as n from ledger_movements where id = ${movementId}`)).toBe(700);
  });

  it('a second movement of the same kind for one transaction fails on the unique key (a refund is never paid twice)', async () => {
    const { platformId, accountId, transactionId } = await fundedAccount(300);
    const refused = await failure(
      own.db.transaction().execute((trx) => insertMovement(trx, { platformId, transactionId, kind: 'FUND', amount: 300, entries: [['SYSTEM:SANDBOX_FUNDING:USD', -300], [accountId, 300]] })),
    );
    expect(refused).toMatchObject({ code: '23505', constraint: 'ledger_movements_once' });
    const kinds = await sql<{ kind: string }>`select kind from ledger_movements where transaction_id = ${transactionId}`.execute(own.db);
    expect(kinds.rows).toEqual([{ kind: 'FUND' }]);
    // Another kind for the same transaction is a movement of its own: allowed.
    await own.db.transaction().execute((trx) => insertMovement(trx, { platformId, transactionId, kind: 'REFUND', amount: 5, entries: [['SYSTEM:SETTLEMENT:USD', -5], ['SYSTEM:SANDBOX_FUNDING:USD', 5]] }));
    expect(await count(sql<{ n: number }>`select count(*) as n from ledger_movements where transaction_id = ${transactionId}`)).toBe(2);
  });

  it('the ledger check reports a balance changed behind the ledger\'s back, and money held for a finished transaction', async () => {
    const before = await checkLedger(own.db);
    expect(before).toMatchObject({ consistent: true, balanceDifferences: [], unbalancedMovements: [], strandedHolds: [] });
    const { platformId, accountId } = await fundedAccount(1_000);
    const fine = await checkLedger(own.db);
    expect(fine).toMatchObject({ consistent: true, accounts: before.accounts + 1, movements: before.movements + 1 });

    // A direct UPDATE the CHECK allows (the balance stays positive) but no movement explains.
    await sql`update internal_accounts set balance = 1500 where id = ${accountId}`.execute(own.db);
    const changed = await checkLedger(own.db);
    expect(changed.consistent).toBe(false);
    expect(changed.balanceDifferences).toEqual([{ accountId, balance: 1_500, entries: 1_000 }]);
    expect(changed.unbalancedMovements).toEqual([]);
    await sql`update internal_accounts set balance = 1000 where id = ${accountId}`.execute(own.db);
    expect((await checkLedger(own.db)).consistent).toBe(true);

    // 400 held in flight for a transfer that is recorded COMPLETED without a settlement: stranded.
    const transactionId = await newTransaction(platformId, accountId, 400, 'COMPLETED', 'OUTGOING');
    await own.db.transaction().execute((trx) => insertMovement(trx, { platformId, transactionId, kind: 'HOLD', amount: 400, entries: [[accountId, -400], ['SYSTEM:IN_FLIGHT:USD', 400]] }));
    await sql`update internal_accounts set balance = 600 where id = ${accountId}`.execute(own.db);
    const stranded = await checkLedger(own.db);
    expect(stranded).toMatchObject({ consistent: false, balanceDifferences: [], strandedHolds: [{ transactionId, status: 'COMPLETED', held: 400 }] });
    // While the transfer is under way, the hold is where it belongs.
    await sql`update transactions set status = 'PENDING' where id = ${transactionId}`.execute(own.db);
    expect(await checkLedger(own.db)).toMatchObject({ consistent: true, strandedHolds: [] });
  });
});
