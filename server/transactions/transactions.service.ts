// Transactions as the platform reads them: get one, list with filters, cancel an unsettled
// outgoing payment. Status changes and their money go through the ledger.
import type { components, operations } from '../../generated/openapi.js';
import type { PlatformContext } from '../context.ts';
import { moveTransaction } from '../payments/payment-status.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { listPage, type Page } from '../shared/page.ts';
import { isInstant } from '../payments/payment-rails.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import { findTransactionForUpdate, type TransactionRow } from '../payments/payments.repository.ts';
import { findTransaction, listTransactions as listRows } from './transactions.repository.ts';

type Transaction = components['schemas']['Transaction'];
type ListQuery = NonNullable<operations['listTransactions']['parameters']['query']>;

const transactionNotFound = () => notFound('TRANSACTION_NOT_FOUND', 'No such transaction.');
const notCancellable = (message: string, row: TransactionRow) => conflict('TRANSACTION_NOT_CANCELLABLE', message, { status: row.status });

export async function getTransaction(ctx: PlatformContext, id: string): Promise<Transaction> {
  const row = await findTransaction(ctx.db, ctx.platformId, id);
  if (row === undefined) throw transactionNotFound();
  return toTransaction(row);
}

export async function listTransactions(ctx: PlatformContext, query: ListQuery): Promise<Page<Transaction>> {
  return listPage(
    ctx.keys,
    { ...query, sortOrder: query.sortOrder ?? 'DESC' },
    ({ sortOrder, ...filters }, page) => listRows(ctx.db, ctx.platformId, { ...filters, order: sortOrder === 'ASC' ? 'asc' : 'desc' }, page),
    toTransaction,
  );
}

/**
 * Cancels an outgoing payment that has not settled: PENDING always, PROCESSING only on a rail that
 * is not instant. The row is locked first, so a scheduled outcome running now either finishes before
 * (and the cancel is refused) or finds the transaction CANCELLED and does nothing.
 */
export async function cancelTransaction(ctx: PlatformContext, id: string, reason: string | undefined): Promise<Transaction> {
  const row = await findTransactionForUpdate(ctx.db, ctx.platformId, id);
  if (row === undefined) throw transactionNotFound();
  if (row.type !== 'OUTGOING') throw notCancellable('Only outgoing payments can be cancelled.', row);
  if (row.status !== 'PENDING' && row.status !== 'PROCESSING') throw notCancellable(`A ${row.status} transaction can no longer be cancelled.`, row);
  const rail = row.details.paymentRail;
  if (row.status === 'PROCESSING' && rail !== undefined && isInstant(rail)) {
    throw notCancellable(`The payment is under way on ${rail}, an instant rail, and can no longer be stopped.`, row);
  }
  const moved = await moveTransaction(ctx, row, 'CANCELLED', 'CANCELLED', reason ?? null);
  if (moved === undefined) throw notCancellable('The transaction changed meanwhile.', row);
  return toTransaction(moved);
}
