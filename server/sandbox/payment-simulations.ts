// Sandbox simulations of a payment's outcome: complete, fail or return a payment of the platform,
// and receive a bank payment into an internal account. Each is a status change of the payments
// layer (payments.service.ts), the one that moves the transaction, its money and its webhook in
// the request's database transaction, as a scheduled outcome or a real rail would.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import {
  completePayment,
  failPayment,
  lockPayment,
  newReference,
  openPayment,
  returnPayment,
  transactionNotFound,
  type TransactionRow,
} from '../payments/payments.service.ts';
import { badRequest, invalidField } from '../shared/errors.ts';
import type { PaymentOutcome } from '../simulation/payment-outcome.ts';
import { incomingDraft } from './sandbox.service.ts';
import { requireTransition, transitionNotAllowed } from './transition-refusal.ts';

type Schemas = components['schemas'];
type Transaction = Schemas['Transaction'];
type FailureReason = Schemas['TransactionFailureReason'];

/** Statuses a rail decides: a payment waiting for the platform's approval is decided by approve or reject. */
const UNDER_WAY = new Set(['PENDING', 'PROCESSING']);

async function requirePayment(ctx: PlatformContext, id: string): Promise<TransactionRow> {
  const row = await lockPayment(ctx, id);
  if (row === undefined) throw transactionNotFound();
  return row;
}

/** The moved row; the row is locked, so it cannot have moved meanwhile. */
function moved(row: TransactionRow | undefined, id: string): Transaction {
  if (row === undefined) throw new Error(`sandbox: transaction ${id} moved under its lock`);
  return toTransaction(row);
}

export async function simulateCompletion(ctx: PlatformContext, id: string): Promise<Transaction> {
  const row = await requirePayment(ctx, id);
  requireTransition('TransactionStatus', row.status, 'COMPLETED', 'The transaction', UNDER_WAY.has(row.status));
  return moved(await completePayment(ctx, row), id);
}

export async function simulateFailure(ctx: PlatformContext, id: string, reason: Schemas['SandboxFailureReason']): Promise<Transaction> {
  const row = await requirePayment(ctx, id);
  requireTransition('TransactionStatus', row.status, 'FAILED', 'The transaction', UNDER_WAY.has(row.status));
  return moved(await failPayment(ctx, row, reason), id);
}

export async function simulateReturn(ctx: PlatformContext, id: string): Promise<Transaction> {
  const row = await requirePayment(ctx, id);
  // Only a payment that left the service over a rail has a receiving bank to return it.
  const toInternal = row.destination_account_id?.startsWith('InternalAccount:') === true;
  if (row.type !== 'OUTGOING' || toInternal) {
    throw transitionNotAllowed('TransactionStatus', row.status, `Only an outgoing payment to an account outside the service can be returned; this one is ${row.type === 'OUTGOING' ? 'between internal accounts' : 'incoming'}.`);
  }
  requireTransition('TransactionStatus', row.status, 'FAILED', 'The transaction', row.status === 'COMPLETED');
  return moved(await returnPayment(ctx, row), id);
}

/** How a received payment unfolds: credited at once, waiting (nothing credited), or refused. */
function incomingOutcome(status: 'COMPLETED' | 'PENDING' | 'FAILED', failureReason: FailureReason): PaymentOutcome {
  switch (status) {
    case 'COMPLETED':
      return { returned: 'COMPLETED', later: [], failureReason: null, balance: 'CREDITED', creditedBack: false };
    case 'PENDING':
      return { returned: 'PENDING', later: [], failureReason: null, balance: 'UNCHANGED', creditedBack: false };
    case 'FAILED':
      return { returned: 'FAILED', later: [], failureReason, balance: 'UNCHANGED', creditedBack: false };
  }
}

export async function simulateIncomingPayment(ctx: PlatformContext, accountId: string, body: Schemas['SandboxIncomingPaymentRequest']): Promise<Schemas['IncomingTransaction']> {
  const status = body.status ?? 'COMPLETED';
  const account = await requireInternalAccount(ctx, accountId);
  if (body.failureReason !== undefined && status !== 'FAILED') throw invalidField('/failureReason', 'failureReason goes with status FAILED only.');
  if (body.currency !== account.currency) throw badRequest('CURRENCY_MISMATCH', `The account holds ${account.currency}, not ${body.currency}.`, { currency: body.currency });
  requireActiveAccount(account, 'The account', 'only ACTIVE accounts can receive payments');
  const transaction = await incomingDraft(ctx, accountId, account, body.amount, newReference('SIM'), {
    fees: 0,
    exchangeRate: 1,
    paymentRail: 'ACH',
    counterpartyInformation: { FULL_NAME: body.senderName ?? 'Sandbox Sender' },
  });
  const received = toTransaction(await openPayment(ctx, { transaction, outcome: incomingOutcome(status, body.failureReason ?? 'BANK_REJECTED') }));
  if (received.type !== 'INCOMING') throw new Error('a payment received must be an incoming transaction');
  return received;
}
