// Transactions: the record of every money movement, written by the ledger in the transaction
// that moves the money.
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TransactionDetails, TransactionTable } from '../db/schema.ts';

export type NewTransactionRow = Omit<Insertable<TransactionTable>, 'details'> & { details: TransactionDetails };

export async function insertTransaction(db: Db, row: NewTransactionRow): Promise<void> {
  await db.insertInto('transactions').values({ ...row, details: JSON.stringify(row.details) }).execute();
}
