import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { DESTINATION_FIELDS, ordered, RATE_DETAIL_FIELDS, SOURCE_FIELDS } from '../shared/compact.ts';
import { currency } from '../shared/currencies.ts';
import type { QuoteWithPayment } from './quotes.repository.ts';

type Schemas = components['schemas'];
type QuoteStatus = Schemas['QuoteStatus'];

/** An executed quote shows where its payment is; a payment that ended unpaid is a failed quote. */
const FROM_PAYMENT: Readonly<Record<string, QuoteStatus>> = {
  PENDING_APPROVAL: 'PENDING',
  PENDING: 'PROCESSING',
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  REJECTED: 'FAILED',
  CANCELLED: 'FAILED',
  EXPIRED: 'EXPIRED',
};

export function quoteStatus(row: QuoteWithPayment, now: Date): QuoteStatus {
  if (row.state === 'EXPIRED') return 'EXPIRED';
  if (row.state === 'EXECUTED') return FROM_PAYMENT[row.transaction_status ?? ''] ?? 'PROCESSING';
  // Open: a real-time-funded quote's waiting transaction may have been cancelled meanwhile.
  if (row.transaction_status !== null && row.transaction_status !== 'PENDING') return FROM_PAYMENT[row.transaction_status] ?? 'FAILED';
  // Past its expiry it is expired on every read, before the job records it.
  return row.expires_at.getTime() <= now.getTime() ? 'EXPIRED' : 'PENDING';
}

export function toQuote(row: QuoteWithPayment, now: Date): Schemas['Quote'] {
  const d = row.details;
  return {
    id: row.id,
    status: quoteStatus(row, now),
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    source: ordered(d.source, SOURCE_FIELDS),
    destination: ordered(d.destination, DESTINATION_FIELDS),
    sendingCurrency: currency(row.sending_currency),
    receivingCurrency: currency(row.receiving_currency),
    totalSendingAmount: row.total_sending_amount,
    totalReceivingAmount: row.total_receiving_amount,
    exchangeRate: d.exchangeRate,
    feesIncluded: row.fees_included,
    ...(row.transaction_id === null ? {} : { transactionId: row.transaction_id }),
    ...(row.agent_action_id === null ? {} : { agentActionId: row.agent_action_id }),
    ...(d.paymentInstructions === undefined ? {} : { paymentInstructions: d.paymentInstructions }),
    ...(d.payloadToSign === undefined ? {} : { payloadToSign: d.payloadToSign }),
    ...(d.counterpartyInformation === undefined ? {} : { counterpartyInformation: d.counterpartyInformation }),
    rateDetails: ordered(d.rateDetails, RATE_DETAIL_FIELDS),
    ...(d.description === undefined ? {} : { description: d.description }),
    ...(d.purposeOfPayment === undefined ? {} : { purposeOfPayment: d.purposeOfPayment }),
  };
}
