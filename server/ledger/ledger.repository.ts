// The ledger's tables: balances of internal accounts (the one column of `internal_accounts` the
// ledger owns), movements and their entries. Every balance change is a single conditional UPDATE
// (no read-modify-write race); the CHECK of the migration keeps a balance from ever going negative
// and the deferred trigger keeps every movement's entries summing to zero, whatever the code does.
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { againIfStalePlan } from '../db/prepared-statements.ts';
import type { Database, MovementKind } from '../db/schema.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import type { BalanceChange, BalanceWriter, NewMovement } from '../context/balance-writer.ts';

/**
 * Locks the platform's internal accounts with these ids, in id order: two movements touching the
 * same accounts lock them in the same order, so they queue instead of deadlocking. The lock is the
 * one the balance UPDATE takes (FOR NO KEY UPDATE): it does not wait for the KEY SHARE locks that
 * foreign keys to the account (a quote's, a transaction's) take, which FOR UPDATE would, out of order.
 */
export async function lockInternalAccounts(db: Db, platformId: string, ids: readonly string[]): Promise<InternalAccountRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('internal_accounts')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** A movement's entry rows, which carry its id, platform and time. */
const entryRows = ({ movement, entries }: NewMovement) => entries.map((e) => ({ ...e, movement_id: movement.id, platform_id: movement.platform_id, created_at: movement.created_at }));

/** The movements, their entries and the balance changes, in one statement. */
async function postMovements(db: Db, movements: readonly NewMovement[], changes: readonly BalanceChange[], maxBalance: number): Promise<InternalAccountRow[]> {
  const deltas = sql<{ id: string; delta: number }>`(values ${sql.join(changes.map((c) => sql`(${c.account}, ${c.amount}::bigint)`))})`.as<'v'>(sql.raw('v(id, delta)'));
  const first = movements[0]?.movement;
  if (first === undefined) throw new Error('ledger: no movement to post');
  return db
    .with('movements', (qb) => qb.insertInto('ledger_movements').values(movements.map((m) => m.movement)))
    .with('entries', (qb) => qb.insertInto('ledger_entries').values(movements.flatMap(entryRows)))
    .updateTable('internal_accounts as a')
    .from(deltas)
    .set((eb) => ({ balance: eb('a.balance', '+', eb.ref('v.delta')), updated_at: first.created_at }))
    .where('a.platform_id', '=', first.platform_id)
    .whereRef('a.id', '=', 'v.id')
    .where((eb) => eb(eb('a.balance', '+', eb.ref('v.delta')), '>=', 0))
    .where((eb) => eb(eb('a.balance', '+', eb.ref('v.delta')), '<=', maxBalance))
    .returningAll('a')
    .execute();
}

/**
 * The balance writer: one statement posts the movements, their entries and every balance change, each
 * a conditional UPDATE (no read-modify-write race); the balance changes are its last step, so an
 * account's row lock is held only until the commit.
 */
export const conditionalBalanceWriter: BalanceWriter = { post: postMovements };

/** A movement and its entries, in one statement, without balance changes (between system accounts only). */
export async function insertMovement(db: Db, movement: NewMovement): Promise<void> {
  await db
    .with('movement', (qb) => qb.insertInto('ledger_movements').values(movement.movement))
    .insertInto('ledger_entries')
    .values(entryRows(movement))
    .execute();
}

/** The kinds of movement a transaction has had so far. */
export async function movementKinds(db: Db, transactionId: string): Promise<MovementKind[]> {
  const rows = await db.selectFrom('ledger_movements').select('kind').where('transaction_id', '=', transactionId).execute();
  return rows.map((r) => r.kind);
}

// The consistency check: every query reads the whole ledger, for the `ledger:check` script and tests.

/** Runs `read` in one REPEATABLE READ snapshot of the database. */
export function inSnapshot<T>(db: Kysely<Database>, read: (tx: Db) => Promise<T>): Promise<T> {
  return againIfStalePlan(() => db.transaction().setIsolationLevel('repeatable read').execute(read));
}

export interface BalanceDifference {
  accountId: string;
  balance: number;
  entries: number;
}

/** Internal accounts whose cached balance differs from the sum of their entries. */
export async function balanceDifferences(db: Db): Promise<BalanceDifference[]> {
  const rows = await db
    .selectFrom('internal_accounts as a')
    .leftJoin('ledger_entries as e', 'e.account', 'a.id')
    .select((eb) => ['a.id', 'a.balance', eb.fn.coalesce(eb.fn.sum<number>('e.amount'), sql<number>`0`).as('entries')])
    .groupBy(['a.id', 'a.balance'])
    .having((eb) => eb('a.balance', '<>', eb.fn.coalesce(eb.fn.sum<number>('e.amount'), sql<number>`0`)))
    .execute();
  return rows.map((r) => ({ accountId: r.id, balance: Number(r.balance), entries: Number(r.entries) }));
}

/** Movements whose entries do not sum to zero (the trigger makes this impossible; checked anyway). */
export async function unbalancedMovements(db: Db): Promise<{ movementId: string; sum: number }[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select((eb) => ['movement_id', eb.fn.sum<number>('amount').as('sum')])
    .groupBy('movement_id')
    .having((eb) => eb.fn.sum('amount'), '<>', 0)
    .execute();
  return rows.map((r) => ({ movementId: r.movement_id, sum: Number(r.sum) }));
}

/**
 * Transactions whose money is still held in flight although they are over, or not held although
 * they are under way: an outgoing transfer holds its amount exactly while PENDING or PROCESSING.
 */
export async function strandedHolds(db: Db): Promise<{ transactionId: string; status: string; held: number }[]> {
  const rows = await sql<{ id: string; status: string; held: number | string }>`
    select t.id, t.status, coalesce(sum(e.amount) filter (where e.account like 'SYSTEM:IN_FLIGHT:%'), 0) as held
    from transactions t
    join ledger_movements m on m.transaction_id = t.id
    join ledger_entries e on e.movement_id = m.id
    group by t.id, t.status, t.amount
    having coalesce(sum(e.amount) filter (where e.account like 'SYSTEM:IN_FLIGHT:%'), 0)
      <> case when t.status in ('PENDING', 'PROCESSING') and bool_or(m.kind = 'HOLD') then t.amount else 0 end`.execute(db);
  return rows.rows.map((r) => ({ transactionId: r.id, status: r.status, held: Number(r.held) }));
}

/** How many internal accounts and movements the check looked at. */
export async function ledgerSize(db: Db): Promise<{ accounts: number; movements: number }> {
  const accounts = await db.selectFrom('internal_accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const movements = await db.selectFrom('ledger_movements').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { accounts: Number(accounts.n), movements: Number(movements.n) };
}
