// The webhook event of each transaction status: incoming-payment and outgoing-payment events as
// WebhookEventType names them. Emitted by the ledger with every change, in its database transaction.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { emitEvent, type WebhookEventType } from '../webhooks/webhooks.service.ts';
import { toTransaction } from './transactions.mapper.ts';
import type { TransactionRow } from './transactions.repository.ts';

type Status = components['schemas']['TransactionStatus'];

const INCOMING: Record<Status, WebhookEventType> = {
  PENDING_APPROVAL: 'INCOMING_PAYMENT_PENDING',
  PENDING: 'INCOMING_PAYMENT_PENDING',
  PROCESSING: 'INCOMING_PAYMENT_PENDING',
  COMPLETED: 'INCOMING_PAYMENT_COMPLETED',
  FAILED: 'INCOMING_PAYMENT_FAILED',
  REJECTED: 'INCOMING_PAYMENT_FAILED',
  CANCELLED: 'INCOMING_PAYMENT_FAILED',
  EXPIRED: 'INCOMING_PAYMENT_FAILED',
};

const OUTGOING: Record<Status, WebhookEventType> = {
  PENDING_APPROVAL: 'OUTGOING_PAYMENT_PENDING',
  PENDING: 'OUTGOING_PAYMENT_PENDING',
  PROCESSING: 'OUTGOING_PAYMENT_PROCESSING',
  COMPLETED: 'OUTGOING_PAYMENT_COMPLETED',
  FAILED: 'OUTGOING_PAYMENT_FAILED',
  REJECTED: 'OUTGOING_PAYMENT_FAILED',
  CANCELLED: 'OUTGOING_PAYMENT_FAILED',
  EXPIRED: 'OUTGOING_PAYMENT_EXPIRED',
};

export const transactionEventType = (row: Pick<TransactionRow, 'type' | 'status'>): WebhookEventType =>
  (row.type === 'INCOMING' ? INCOMING : OUTGOING)[row.status];

export async function emitTransactionEvent(ctx: PlatformContext, row: TransactionRow): Promise<void> {
  await emitEvent(ctx, transactionEventType(row), toTransaction(row));
}
