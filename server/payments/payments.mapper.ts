// A transaction row as the API shows it (Transaction): in every answer about a payment and in its
// webhook events.
import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { DESTINATION_FIELDS, ordered, RATE_DETAIL_FIELDS, SOURCE_FIELDS } from '../shared/compact.ts';
import type { TransactionRow } from './payments.repository.ts';

type Transaction = components['schemas']['Transaction'];
type Outgoing = components['schemas']['OutgoingTransaction'];
type Incoming = components['schemas']['IncomingTransaction'];

const ENDED_UNPAID: ReadonlySet<TransactionRow['status']> = new Set(['FAILED', 'REJECTED', 'CANCELLED', 'EXPIRED']);

export function toTransaction(row: TransactionRow): Transaction {
  // Fields in the order the spec documents them (jsonb keeps its own key order).
  const d = row.details;
  const rest = {
    destination: ordered(d.destination, DESTINATION_FIELDS),
    ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
    ...(d.platformCustomerId === undefined ? {} : { platformCustomerId: d.platformCustomerId }),
  };
  const tail = {
    ...(d.fees === undefined ? {} : { fees: d.fees }),
    ...(d.exchangeRate === undefined ? {} : { exchangeRate: d.exchangeRate }),
    ...(d.quoteId === undefined ? {} : { quoteId: d.quoteId }),
    ...(d.paymentRail === undefined ? {} : { paymentRail: d.paymentRail }),
    ...(d.agentId === undefined ? {} : { agentId: d.agentId }),
    ...(d.agentActionId === undefined ? {} : { agentActionId: d.agentActionId }),
    ...(d.description === undefined ? {} : { description: d.description }),
    ...(d.counterpartyInformation === undefined ? {} : { counterpartyInformation: d.counterpartyInformation }),
    ...(d.reconciliationInstructions === undefined ? {} : { reconciliationInstructions: d.reconciliationInstructions }),
    ...(d.rateDetails === undefined ? {} : { rateDetails: ordered(d.rateDetails, RATE_DETAIL_FIELDS) }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    ...(row.settled_at === null ? {} : { settledAt: iso(row.settled_at) }),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
  if (row.type === 'OUTGOING') {
    const { sentAmount } = d;
    const source = d.source === undefined ? undefined : ordered(d.source, SOURCE_FIELDS);
    if (source === undefined || sentAmount === undefined) throw new Error(`transaction ${row.id}: an outgoing transaction without source or sentAmount`);
    const received = d.receivedAmount === undefined ? {} : { receivedAmount: d.receivedAmount };
    return { id: row.id, type: 'OUTGOING', direction: 'DEBIT', status: row.status, source, ...rest, sentAmount, ...received, ...tail } satisfies Outgoing;
  }
  if (d.receivedAmount === undefined) throw new Error(`transaction ${row.id}: an incoming transaction without receivedAmount`);
  // Only what was credited: an incoming payment that ended without completing received nothing.
  const receivedAmount = ENDED_UNPAID.has(row.status) ? { ...d.receivedAmount, amount: 0 } : d.receivedAmount;
  const source = d.source === undefined ? {} : { source: ordered(d.source, SOURCE_FIELDS) };
  const sent = d.sentAmount === undefined ? {} : { sentAmount: d.sentAmount };
  return { id: row.id, type: 'INCOMING', direction: 'CREDIT', status: row.status, ...source, ...rest, ...sent, receivedAmount, ...tail } satisfies Incoming;
}
