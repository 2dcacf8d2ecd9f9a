// Transactions: the record of every money movement. Inserted and moved from status to status only
// by the ledger (in the database transaction that moves the money); read and listed here.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { paginate, type SortDirection } from '../db/paginate.ts';
import type { TransactionDetails, TransactionTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

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

export async function findTransaction(db: Db, platformId: string, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

/** The transaction, locked until the end of the database transaction (cancel against a scheduled outcome). */
export async function findTransactionForUpdate(db: Db, platformId: string, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface TransactionFilters {
  customerId?: string;
  platformCustomerId?: string;
  accountId?: string;
  sourceAccountId?: string;
  destinationAccountId?: string;
  status?: TransactionRow['status'];
  type?: TransactionRow['type'];
  reference?: string;
  startDate?: string;
  endDate?: string;
  order: SortDirection;
}

export async function listTransactions(db: Db, platformId: string, f: TransactionFilters, page: PageRequest): Promise<PageRows<TransactionRow>> {
  let q = db.selectFrom('transactions').where('transactions.platform_id', '=', platformId);
  if (f.customerId !== undefined) q = q.where('transactions.customer_id', '=', f.customerId);
  if (f.platformCustomerId !== undefined) {
    const id = f.platformCustomerId;
    q = q.where('transactions.customer_id', 'in', (eb) =>
      eb.selectFrom('customers').select('customers.id').where('customers.platform_id', '=', platformId).where('customers.platform_customer_id', '=', id),
    );
  }
  if (f.accountId !== undefined) {
    const id = f.accountId;
    q = q.where((eb) => eb.or([eb('transactions.source_account_id', '=', id), eb('transactions.destination_account_id', '=', id)]));
  }
  if (f.sourceAccountId !== undefined) q = q.where('transactions.source_account_id', '=', f.sourceAccountId);
  if (f.destinationAccountId !== undefined) q = q.where('transactions.destination_account_id', '=', f.destinationAccountId);
  if (f.status !== undefined) q = q.where('transactions.status', '=', f.status);
  if (f.type !== undefined) q = q.where('transactions.type', '=', f.type);
  if (f.reference !== undefined) q = q.where('transactions.reference', '=', f.reference);
  if (f.startDate !== undefined) q = q.where('transactions.created_at', '>=', new Date(f.startDate));
  if (f.endDate !== undefined) q = q.where('transactions.created_at', '<=', new Date(f.endDate));
  return paginate(q, 'transactions', page, (s) => s.selectAll('transactions'), f.order);
}
