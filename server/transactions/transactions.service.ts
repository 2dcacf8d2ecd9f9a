// Transactions as the platform reads them: get one, list with filters, cancel an unsettled
// outgoing payment. Status changes and their money go through the payments layer.
import type { components, operations } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { listPage, type Page } from '../shared/page.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import { cancelPayment, transactionNotFound } from '../payments/payments.service.ts';
import { findTransaction, listTransactions as listRows } from './transactions.repository.ts';

type Transaction = components['schemas']['Transaction'];
type ListQuery = NonNullable<operations['listTransactions']['parameters']['query']>;

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

/** Cancels an outgoing payment that has not settled (payments.service.ts says when it can). */
export async function cancelTransaction(ctx: PlatformContext, id: string, reason: string | undefined): Promise<Transaction> {
  return toTransaction(await cancelPayment(ctx, id, reason));
}
