// Transactions as the platform reads them: one by id, and lists. Written only by the payments layer
// (payments/payments.repository.ts), in the database transaction that moves the money.
import type { Db } from '../db/database.ts';
import { dateOrUndefined, pageQuery, type ListPlan, type SortDirection } from '../db/paginate.ts';
import { firstRow, queryTemplate } from '../db/query-template.ts';
import type { TransactionRow } from '../payments/payments.repository.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

const transactionById = queryTemplate<{ platformId: string; id: string }, TransactionRow>((db, p) =>
  db.selectFrom('transactions').selectAll().where('platform_id', '=', p.platformId).where('id', '=', p.id),
);

export async function findTransaction(db: Db, platformId: string, id: string): Promise<TransactionRow | undefined> {
  return firstRow(db, transactionById, { platformId, id });
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

/** Counts kept by the database (migration 0018): unfiltered or by status or type, with one date bound or none. */
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
