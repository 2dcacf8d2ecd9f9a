// The transaction rows: the record of every payment. Inserted and moved from status to status only
// by the payments layer, in the database transaction that moves its money and queues its events.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TransactionDetails, TransactionTable } from '../db/schema.ts';

export type TransactionRow = Selectable<TransactionTable>;
export type NewTransactionRow = Omit<Insertable<TransactionTable>, 'details'> & { details: TransactionDetails };

export async function insertTransaction(db: Db, row: NewTransactionRow): Promise<TransactionRow> {
  return db
    .insertInto('transactions')
    .values({ ...row, details: JSON.stringify(row.details) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves the status on only from `from`: a concurrent change is noticed (undefined), never overwritten. */
export async function moveTransactionStatus(
  db: Db,
  id: string,
  from: TransactionRow['status'],
  changes: Pick<Updateable<TransactionTable>, 'status' | 'failure_reason' | 'settled_at' | 'cancellation_reason' | 'updated_at'>,
): Promise<TransactionRow | undefined> {
  return db.updateTable('transactions').set(changes).where('id', '=', id).where('status', '=', from).returningAll().executeTakeFirst();
}

/** The transaction, locked until the end of the database transaction (cancel against a scheduled outcome). */
export async function findTransactionForUpdate(db: Db, platformId: string, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forUpdate().executeTakeFirst();
}
