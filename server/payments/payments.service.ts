// A payment's life, for every kind of payment (transfers, quotes, agent actions, sandbox funding and
// receipts), and the only way the areas above move money: opened in its first visible status with
// its scheduled changes (payments.jobs.ts), or held for the platform's approval and started when
// approved as a new one would start; paid when its funds arrive; failed, rejected, expired or
// cancelled. Each step writes the transaction row, its event and its money in the caller's
// database transaction (payment-status.ts), the ledger beneath.
import { randomInt } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { findPlatformCustomerId } from '../customers/customers.service.ts';
import { lockBalances, type Credit, type Opening } from '../ledger/ledger.service.ts';
import { conflict, notFound } from '../shared/errors.ts';
import type { PaymentOutcome } from '../simulation/payment-outcome.ts';
import { isInstant } from './payment-rails.ts';
import { moveTransaction, openTransaction, startApprovedTransaction, type NewTransaction } from './payment-status.ts';
import { scheduleNextChange } from './payments.jobs.ts';
import { findTransactionForUpdate, type TransactionRow } from './payments.repository.ts';

export type { NewTransaction } from './payment-status.ts';
export type { TransactionRow } from './payments.repository.ts';

type Schemas = components['schemas'];
type Status = Schemas['TransactionStatus'];
type FailureReason = Schemas['TransactionFailureReason'];

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** A reference for the rail's memo field, as banks print it: short, unambiguous characters. */
export const newReference = (prefix: string): string =>
  `${prefix}-${Array.from({ length: 8 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('')}`;

/** `platformCustomerId` of the account's customer, for the transaction's details. */
export async function ownerFields(ctx: PlatformContext, customerId: string | null): Promise<{ platformCustomerId?: string }> {
  if (customerId === null) return {};
  const platformCustomerId = await findPlatformCustomerId(ctx, customerId);
  return platformCustomerId === undefined ? {} : { platformCustomerId };
}

/** A payment ready to open: its transaction, how it unfolds and, for a conversion, what its destination gets. */
export interface PaymentDraft {
  transaction: NewTransaction;
  outcome: PaymentOutcome;
  /** A payment between two internal accounts (a conversion): what the destination is credited when it completes at once. */
  credit?: Credit;
  /** Money credited from the sandbox's funding account rather than from outside. */
  fundedFrom?: 'SANDBOX_FUNDING';
}

/** Who initiated a payment, when an agent did: recorded in its details. */
export type Initiator = Pick<Schemas['TransactionBase'], 'agentId' | 'agentActionId'>;

const withInitiator = (transaction: NewTransaction, initiator: Initiator): NewTransaction => ({ ...transaction, details: { ...transaction.details, ...initiator } });

/** The status path up to the answer: a payment refused at once was PENDING for no time at all. */
const openingPath = (outcome: PaymentOutcome): Status[] => (outcome.returned === 'FAILED' ? ['PENDING', 'FAILED'] : [outcome.returned]);

/** The reason of a payment that fails at once. */
const failedAtOnce = (outcome: PaymentOutcome): FailureReason | null => (outcome.returned === 'FAILED' ? outcome.failureReason : null);

/** The ledger's money step for the payment's first visible status. */
function openingOf({ outcome, credit, fundedFrom }: PaymentDraft): Opening {
  switch (outcome.balance) {
    case 'UNCHANGED':
      return { kind: 'NONE' };
    case 'CREDITED':
      return fundedFrom === undefined ? { kind: 'RECEIVE' } : { kind: 'FUND', from: fundedFrom };
    case 'DEBITED':
      // Completed at once, the money is sent (and a conversion's credited); otherwise held in flight.
      return outcome.returned === 'COMPLETED' ? { kind: 'SEND', ...(credit === undefined ? {} : { credit }) } : { kind: 'HOLD' };
  }
}

/** Opens a payment in its first visible status, and schedules what follows. */
export async function openPayment(ctx: PlatformContext, payment: PaymentDraft, initiator: Initiator = {}): Promise<TransactionRow> {
  const { outcome } = payment;
  return openTransaction(ctx, withInitiator(payment.transaction, initiator), openingPath(outcome), openingOf(payment), failedAtOnce(outcome), (opened) =>
    scheduleNextChange(ctx, opened, outcome.later, outcome.failureReason),
  );
}

/** Records a payment that waits for the platform's approval: PENDING_APPROVAL, nothing moved. */
export async function openPaymentForApproval(ctx: PlatformContext, payment: PaymentDraft, initiator: Initiator): Promise<TransactionRow> {
  return openTransaction(ctx, withInitiator(payment.transaction, initiator), ['PENDING_APPROVAL'], { kind: 'NONE' });
}

/** Starts an approved payment (drafted again at approval) as a new one would start. */
export async function startApprovedPayment(ctx: PlatformContext, row: TransactionRow, payment: PaymentDraft): Promise<TransactionRow> {
  const { outcome } = payment;
  // From PENDING_APPROVAL a refusal fails at once: there was no PENDING stage to leave.
  const path: Status[] = outcome.returned === 'FAILED' ? ['FAILED'] : openingPath(outcome);
  const started = await startApprovedTransaction(ctx, row, path, openingOf(payment), failedAtOnce(outcome));
  await scheduleNextChange(ctx, started, outcome.later, outcome.failureReason);
  return started;
}

export const transactionNotFound = () => notFound('TRANSACTION_NOT_FOUND', 'No such transaction.');

/** The payment, locked until the end of the database transaction: one change at a time. */
export async function lockPayment(ctx: PlatformContext, id: string): Promise<TransactionRow | undefined> {
  return findTransactionForUpdate(ctx.db, ctx.platformId, id);
}

/**
 * Locks the balances a payment moves, in id order, for the rest of the database transaction: a
 * balance checked after this still holds when the payment's debit runs (an approval that must FAIL
 * a payment the balance cannot cover, rather than have the ledger refuse its debit).
 */
export async function lockPaymentBalances(ctx: PlatformContext, row: TransactionRow): Promise<void> {
  await lockBalances(ctx, [row.source_account_id, row.destination_account_id]);
}

/** A payment recorded as waiting for its funds (PENDING) is paid: it moves on as its outcome says. */
export async function payWaitingPayment(ctx: PlatformContext, row: TransactionRow, outcome: PaymentOutcome): Promise<TransactionRow | undefined> {
  const moved = await moveTransaction(ctx, row, outcome.returned, failedAtOnce(outcome));
  if (moved !== undefined) await scheduleNextChange(ctx, moved, outcome.later, outcome.failureReason);
  return moved;
}

/** The payment FAILS for `reason`; undefined when it had moved on meanwhile. */
export const failPayment = (ctx: PlatformContext, row: TransactionRow, reason: FailureReason): Promise<TransactionRow | undefined> => moveTransaction(ctx, row, 'FAILED', reason);

/** The payment COMPLETES now (its rail delivered it); undefined when it had moved on meanwhile. */
export const completePayment = (ctx: PlatformContext, row: TransactionRow): Promise<TransactionRow | undefined> => moveTransaction(ctx, row, 'COMPLETED');

/** The receiving bank returns a COMPLETED payment: FAILED with PAYMENT_RETURNED, the amount refunded. */
export const returnPayment = (ctx: PlatformContext, row: TransactionRow): Promise<TransactionRow | undefined> => moveTransaction(ctx, row, 'FAILED', 'PAYMENT_RETURNED');

/** The platform refuses a payment waiting for its approval. */
export const rejectPayment = (ctx: PlatformContext, row: TransactionRow): Promise<TransactionRow | undefined> => moveTransaction(ctx, row, 'REJECTED', 'PLATFORM_REJECTED');

/** A payment still waiting for its funds when its quote expires. */
export const expirePayment = (ctx: PlatformContext, row: TransactionRow): Promise<TransactionRow | undefined> => moveTransaction(ctx, row, 'EXPIRED', 'QUOTE_EXPIRED');

const notCancellable = (message: string, row: TransactionRow) => conflict('TRANSACTION_NOT_CANCELLABLE', message, { status: row.status });

/**
 * Cancels an outgoing payment that has not settled: PENDING always, PROCESSING only on a rail that
 * is not instant. The row is locked first, so a scheduled outcome running now either finishes before
 * (and the cancel is refused) or finds the transaction CANCELLED and does nothing.
 */
export async function cancelPayment(ctx: PlatformContext, id: string, reason: string | undefined): Promise<TransactionRow> {
  const row = await lockPayment(ctx, id);
  if (row === undefined) throw transactionNotFound();
  if (row.type !== 'OUTGOING') throw notCancellable('Only outgoing payments can be cancelled.', row);
  if (row.status !== 'PENDING' && row.status !== 'PROCESSING') throw notCancellable(`A ${row.status} transaction can no longer be cancelled.`, row);
  const rail = row.details.paymentRail;
  if (row.status === 'PROCESSING' && rail !== undefined && isInstant(rail)) {
    throw notCancellable(`The payment is under way on ${rail}, an instant rail, and can no longer be stopped.`, row);
  }
  const moved = await moveTransaction(ctx, row, 'CANCELLED', 'CANCELLED', reason ?? null);
  if (moved === undefined) throw notCancellable('The transaction changed meanwhile.', row);
  return moved;
}
