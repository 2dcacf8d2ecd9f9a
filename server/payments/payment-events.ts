// The webhook event of each transaction status: incoming-payment and outgoing-payment events as
// WebhookEventType names them. Queued with every status change (payment-status.ts), in its database transaction.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { emitEvent, type EventTypeOf } from '../webhooks/webhooks.service.ts';
import { toTransaction } from './payments.mapper.ts';
import type { TransactionRow } from './payments.repository.ts';

type Status = components['schemas']['TransactionStatus'];

const INCOMING: Record<Status, EventTypeOf<'incoming-payment'>> = {
  PENDING_APPROVAL: 'INCOMING_PAYMENT_PENDING',
  PENDING: 'INCOMING_PAYMENT_PENDING',
  PROCESSING: 'INCOMING_PAYMENT_PENDING',
  COMPLETED: 'INCOMING_PAYMENT_COMPLETED',
  FAILED: 'INCOMING_PAYMENT_FAILED',
  REJECTED: 'INCOMING_PAYMENT_FAILED',
  CANCELLED: 'INCOMING_PAYMENT_FAILED',
  EXPIRED: 'INCOMING_PAYMENT_FAILED',
};

const OUTGOING: Record<Status, EventTypeOf<'outgoing-payment'>> = {
  PENDING_APPROVAL: 'OUTGOING_PAYMENT_PENDING',
  PENDING: 'OUTGOING_PAYMENT_PENDING',
  PROCESSING: 'OUTGOING_PAYMENT_PROCESSING',
  COMPLETED: 'OUTGOING_PAYMENT_COMPLETED',
  FAILED: 'OUTGOING_PAYMENT_FAILED',
  REJECTED: 'OUTGOING_PAYMENT_FAILED',
  CANCELLED: 'OUTGOING_PAYMENT_FAILED',
  EXPIRED: 'OUTGOING_PAYMENT_EXPIRED',
};

export async function emitTransactionEvent(ctx: PlatformContext, row: TransactionRow): Promise<void> {
  const transaction = toTransaction(row);
  if (transaction.type === 'INCOMING') await emitEvent(ctx, INCOMING[row.status], transaction);
  else await emitEvent(ctx, OUTGOING[row.status], transaction);
}
