// Executing a quote: the source is debited by `totalSendingAmount` and the quote's transaction is
// opened (or, for real-time funding, opened with the quote and moved on when the funds arrive; an
// Embedded Wallet source signs the request issued with the quote) in one database transaction,
// under the quote's row lock, so a quote is executed at most once whatever the retries and races.
// What happens next follows the destination (simulation/quote-outcomes.ts), as durable jobs.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { sandboxIdentifier } from '../external-accounts/account-info.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { badRequest, conflict, invalidField, notFound } from '../shared/errors.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import { failPayment, lockPayment, openPayment, payWaitingPayment, startApprovedPayment, type Initiator, type PaymentDraft, type TransactionRow } from '../payments/payments.service.ts';
import { checkIssuedRequestFirst, issueSigningRequest, requireIssuedSignature, type SignatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { WAITING } from '../simulation/payment-outcome.ts';
import { quotePaymentOutcome, type QuotePaidTo } from '../simulation/quote-outcomes.ts';
import { quoteTransactionDraft } from './quote-transaction.ts';
import { toQuote } from './quotes.mapper.ts';
import { closeQuote, findQuoteForUpdate, linkQuoteTransaction, type QuoteRow, type QuoteWithPayment } from './quotes.repository.ts';

type Schemas = components['schemas'];

async function paidTo(ctx: PlatformContext, quote: QuoteRow): Promise<QuotePaidTo> {
  const destination = quote.details.destination;
  if (destination.destinationType === 'UMA_ADDRESS') return { kind: 'UMA', address: destination.umaAddress };
  if (destination.accountId.startsWith('InternalAccount:')) return { kind: 'INTERNAL' };
  const account = await requireExternalAccount(ctx, destination.accountId);
  return { kind: 'EXTERNAL', identifier: sandboxIdentifier(account.account_info) };
}

/** The signing request of a quote from an Embedded Wallet: one signature executes it, until it expires. */
export async function walletSigningPayload(ctx: PlatformContext, wallet: InternalAccountRow, quoteId: string, totalSendingAmount: number, expiresAt: Date): Promise<string> {
  const action = { wallet, operation: 'executeQuote', target: { field: 'quoteId', id: quoteId }, shown: { totalSendingAmount, sendingCurrency: wallet.currency } } as const;
  return (await issueSigningRequest(ctx, action, expiresAt)).payload;
}

/** A real-time-funded quote's transaction exists from the start, PENDING until its funds arrive. */
export async function openFundingWait(ctx: PlatformContext, quote: QuoteRow): Promise<QuoteWithPayment> {
  const transaction = await openPayment(ctx, { transaction: await quoteTransactionDraft(ctx, quote), outcome: WAITING });
  return { ...(await linkQuoteTransaction(ctx.db, quote.id, transaction.id, ctx.clock.now())), transaction_status: transaction.status };
}

/** Refuses a quote that can no longer be executed (or paid): executed, expired, or its payment ended. */
function checkOpen(ctx: PlatformContext, quote: QuoteRow): void {
  if (quote.state === 'EXECUTED') throw conflict('QUOTE_NOT_PENDING', `Quote ${quote.id} was already executed.`);
  if (quote.state === 'EXPIRED' || quote.expires_at.getTime() <= ctx.clock.now().getTime()) {
    throw conflict('QUOTE_NOT_PENDING', `Quote ${quote.id} expired at ${quote.expires_at.toISOString()}; create a new quote.`);
  }
}

export async function lockQuote(ctx: PlatformContext, quoteId: string): Promise<QuoteRow> {
  const quote = await findQuoteForUpdate(ctx.db, ctx.platformId, quoteId);
  if (quote === undefined) throw notFound('QUOTE_NOT_FOUND', 'No such quote.');
  return quote;
}

/**
 * The first check of executing a quote from an Embedded Wallet: a presented Request-Id, before the
 * quote's state, the balance or an agent's policy, so a spent one answers 401 REQUEST_ID_REUSED
 * (not 409 for the quote it executed). Other sources ignore the signature headers.
 */
export async function checkQuoteRequestIdFirst(ctx: PlatformContext, quote: QuoteRow, headers: SignatureHeaders): Promise<void> {
  if (headers.requestId === undefined || quote.source_account_id?.startsWith('InternalAccount:') !== true) return;
  if ((await requireInternalAccount(ctx, quote.source_account_id)).type === 'EMBEDDED_WALLET') await checkIssuedRequestFirst(ctx, { operation: 'executeQuote', targetId: quote.id }, headers);
}

/**
 * What executing a quote checks, and the payment it opens (the caller opens it, or starts the one
 * an agent action recorded for approval). `signature` is 'VERIFIED' when the owner of a wallet
 * source signed already (when the agent submitted the action).
 */
export async function prepareQuoteExecution(ctx: PlatformContext, quote: QuoteRow, signature: SignatureHeaders | 'VERIFIED' | undefined, options: { checkBalance?: boolean } = {}): Promise<PaymentDraft> {
  checkOpen(ctx, quote);
  if (quote.source_account_id === null) throw badRequest('INVALID_INPUT', 'Real-time-funded quotes execute when their funds arrive (POST /sandbox/send in the sandbox), not with this call.');
  const account = await requireInternalAccount(ctx, quote.source_account_id);
  requireActiveAccount(account, 'The source account', 'it cannot pay');
  if (account.type === 'EMBEDDED_WALLET' && signature !== 'VERIFIED') {
    // The quote's signing request is used up with the execution, or not at all when it rolls back.
    await requireIssuedSignature(ctx, { wallet: account, operation: 'executeQuote', target: { field: 'quoteId', id: quote.id } }, signature ?? { signature: undefined, requestId: undefined });
  }
  // The quote stays PENDING (everything rolls back), so it can be executed after funding.
  if (options.checkBalance !== false && account.balance < quote.total_sending_amount) {
    throw badRequest('INSUFFICIENT_FUNDS', `The balance of ${account.id} is less than ${quote.total_sending_amount}; fund it and execute again before the quote expires.`, { accountId: account.id });
  }
  const outcome = quotePaymentOutcome(await paidTo(ctx, quote));
  const credit = quote.destination_account_id?.startsWith('InternalAccount:') === true ? { account: quote.destination_account_id, currency: quote.receiving_currency, amount: quote.total_receiving_amount } : undefined;
  return { transaction: await quoteTransactionDraft(ctx, quote), outcome, ...(credit === undefined ? {} : { credit }) };
}

/**
 * Executes a quote the caller has locked (or just created) from its internal-account source;
 * answers its payment and the executed quote (with that payment's status).
 */
export async function executeOpenQuote(
  ctx: PlatformContext,
  quote: QuoteRow,
  signature: SignatureHeaders | 'VERIFIED' | undefined,
  initiator: Initiator = {},
): Promise<{ transaction: TransactionRow; quote: QuoteWithPayment }> {
  const transaction = await openPayment(ctx, await prepareQuoteExecution(ctx, quote, signature), initiator);
  const executed = await closeQuote(ctx.db, quote.id, { state: 'EXECUTED', transaction_id: transaction.id, updated_at: ctx.clock.now() });
  if (executed === undefined) throw new Error(`quote ${quote.id}: its locked quote moved under the lock`);
  return { transaction, quote: { ...executed, transaction_status: transaction.status } };
}

/**
 * Executes a quote whose execution an agent action recorded for approval, in that action's
 * transaction; `prepared` is what `prepareQuoteExecution(ctx, quote, 'VERIFIED')` answered.
 */
export async function executeApprovedQuote(ctx: PlatformContext, quote: QuoteRow, pending: TransactionRow, prepared: PaymentDraft): Promise<TransactionRow> {
  const transaction = await startApprovedPayment(ctx, pending, prepared);
  await closeQuote(ctx.db, quote.id, { state: 'EXECUTED', transaction_id: transaction.id, updated_at: ctx.clock.now() });
  return transaction;
}

export async function executeQuote(ctx: PlatformContext, quoteId: string, headers: SignatureHeaders): Promise<Schemas['Quote']> {
  const quote = await lockQuote(ctx, quoteId);
  await checkQuoteRequestIdFirst(ctx, quote, headers);
  return toQuote((await executeOpenQuote(ctx, quote, headers)).quote, ctx.clock.now());
}

/** The quote's waiting transaction, locked; a real-time-funded quote always has one. */
export async function waitingTransaction(ctx: PlatformContext, quote: QuoteRow): Promise<TransactionRow> {
  const transaction = quote.transaction_id === null ? undefined : await lockPayment(ctx, quote.transaction_id);
  if (transaction === undefined) throw new Error(`quote ${quote.id}: a real-time-funded quote without its transaction`);
  return transaction;
}

/** Sandbox: the funds of a real-time-funded quote arrive. Another amount fails the payment. */
export async function payRealtimeQuote(ctx: PlatformContext, body: Schemas['SandboxSendRequest']): Promise<Schemas['Transaction']> {
  const quote = await lockQuote(ctx, body.quoteId);
  if (quote.source_type !== 'REALTIME_FUNDING') throw invalidField('/quoteId', 'Only quotes with a REALTIME_FUNDING source are paid this way; execute the others with POST /quotes/{quoteId}/execute.');
  if (body.currencyCode !== quote.sending_currency) {
    throw badRequest('CURRENCY_MISMATCH', `The quote is paid in ${quote.sending_currency}, not ${body.currencyCode}.`, { expectedCurrency: quote.sending_currency });
  }
  checkOpen(ctx, quote);
  const transaction = await waitingTransaction(ctx, quote);
  if (transaction.status !== 'PENDING') throw conflict('QUOTE_NOT_PENDING', `The payment of quote ${quote.id} is already ${transaction.status}.`);
  const amount = body.currencyAmount ?? quote.total_sending_amount;
  // A deposit of the wrong amount is sent back: the payment fails, nothing is delivered.
  const moved =
    amount === quote.total_sending_amount ? await payWaitingPayment(ctx, transaction, quotePaymentOutcome(await paidTo(ctx, quote))) : await failPayment(ctx, transaction, 'QUOTE_EXECUTION_FAILED');
  if (moved === undefined) throw new Error(`quote ${quote.id}: its locked transaction moved under the lock`);
  await closeQuote(ctx.db, quote.id, { state: 'EXECUTED', updated_at: ctx.clock.now() });
  return toTransaction(moved);
}
