// Transactions: the record of every money movement. Inserted and moved from status to status only
// by the ledger (in the database transaction that moves the money); read and listed here.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { dateOrUndefined, pageQuery, type ListPlan, type SortDirection } from '../db/paginate.ts';
import { firstRow, queryTemplate } from '../db/query-template.ts';
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

const transactionById = queryTemplate<{ platformId: string; id: string }, TransactionRow>((db, p) =>
  db.selectFrom('transactions').selectAll().where('platform_id', '=', p.platformId).where('id', '=', p.id),
);

export async function findTransaction(db: Db, platformId: string, id: string): Promise<TransactionRow | undefined> {
  return firstRow(db, transactionById, { platformId, id });
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

type TransactionListParams = Omit<TransactionFilters, 'order' | 'startDate' | 'endDate'> & { platformId: string; startDate?: Date; endDate?: Date };

/** Counts kept by the database (migration 0013): unfiltered or by status or type, with one date bound or none. */
const plan: ListPlan<TransactionListParams> = { by: { status: 'status', type: 'type' }, windows: { startDate: ['created_at', '<'], endDate: ['created_at', '>'] } };

const transactionsPage = pageQuery(
  'transactions',
  (db, p: TransactionListParams) => {
    let q = db.selectFrom('transactions').where('transactions.platform_id', '=', p.platformId);
    if (p.customerId !== undefined) q = q.where('transactions.customer_id', '=', p.customerId);
    if (p.platformCustomerId !== undefined) {
      // At most one customer has it (a unique key): a scalar, so the customer's index serves the page.
      const id = p.platformCustomerId;
      q = q.where('transactions.customer_id', '=', (eb) =>
        eb.selectFrom('customers').select('customers.id').where('customers.platform_id', '=', p.platformId).where('customers.platform_customer_id', '=', id),
      );
    }
    if (p.accountId !== undefined) {
      const id = p.accountId;
      q = q.where((eb) => eb.or([eb('transactions.source_account_id', '=', id), eb('transactions.destination_account_id', '=', id)]));
    }
    if (p.sourceAccountId !== undefined) q = q.where('transactions.source_account_id', '=', p.sourceAccountId);
    if (p.destinationAccountId !== undefined) q = q.where('transactions.destination_account_id', '=', p.destinationAccountId);
    if (p.status !== undefined) q = q.where('transactions.status', '=', p.status);
    if (p.type !== undefined) q = q.where('transactions.type', '=', p.type);
    if (p.reference !== undefined) q = q.where('transactions.reference', '=', p.reference);
    if (p.startDate !== undefined) q = q.where('transactions.created_at', '>=', p.startDate);
    if (p.endDate !== undefined) q = q.where('transactions.created_at', '<=', p.endDate);
    return q;
  },
  (s) => s.selectAll('transactions'),
  plan,
);

export async function listTransactions(db: Db, platformId: string, f: TransactionFilters, page: PageRequest): Promise<PageRows<TransactionRow>> {
  // Named one by one: a key the template does not know would be a parameter it never sends.
  const params: TransactionListParams = {
    platformId,
    customerId: f.customerId,
    platformCustomerId: f.platformCustomerId,
    accountId: f.accountId,
    sourceAccountId: f.sourceAccountId,
    destinationAccountId: f.destinationAccountId,
    status: f.status,
    type: f.type,
    reference: f.reference,
    startDate: dateOrUndefined(f.startDate),
    endDate: dateOrUndefined(f.endDate),
  };
  return transactionsPage(db, params, page, f.order);
}
