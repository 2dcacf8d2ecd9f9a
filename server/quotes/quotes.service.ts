// Quotes: a price for moving money from a source to a destination, locked until `expiresAt`.
// Creation checks both ends (quote-ends.ts), prices the amount (quote-price.ts) and records the
// quote; a real-time-funded quote also opens its transaction, waiting for the funds. Execution is
// quote-execution.ts.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import type { QuoteDetails } from '../db/schema.ts';
import { newJob, scheduleWith } from '../jobs/schedule.ts';
import { newReference } from '../payments/payments.service.ts';
import { addMs, iso } from '../shared/clock.ts';
import { badRequest, invalidField, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { quotePaymentInstructions } from './payment-instructions.ts';
import { resolveDestination, resolveSource } from './quote-ends.ts';
import { executeOpenQuote, openFundingWait, walletSigningPayload } from './quote-execution.ts';
import { priceFor } from './quote-price.ts';
import { expireQuoteJob } from './quotes.jobs.ts';
import { toQuote } from './quotes.mapper.ts';
import { findQuote, insertQuote, type NewQuoteRow, type QuoteWithPayment } from './quotes.repository.ts';

type Schemas = components['schemas'];
type Quote = Schemas['Quote'];

/** How long a quote holds its price: the spec's "typically 1 to 5 minutes", 5 in the sandbox. */
export const QUOTE_LIFETIME_MS = 5 * 60_000;

/** Creates a quote; `agentId` when an agent creates it (through the agent's own operation). */
export async function createQuote(ctx: PlatformContext, body: Schemas['QuoteCreateRequest'], agentId: string | null = null): Promise<Quote> {
  const sourceIn = body.source;
  const destinationIn = body.destination;
  const source = await resolveSource(ctx, sourceIn);
  if (body.immediatelyExecute === true && (source.accountId === null || source.wallet !== null)) {
    throw badRequest(
      'IMMEDIATE_EXECUTION_NOT_SUPPORTED',
      source.wallet !== null
        ? 'Embedded Wallet sources need a wallet signature: create the quote without immediatelyExecute, then execute it with Service-Wallet-Signature.'
        : 'Real-time-funded quotes execute when their funds arrive: create the quote without immediatelyExecute and follow its paymentInstructions.',
    );
  }
  const destination = await resolveDestination(ctx, destinationIn, body, source.customerId);
  if (source.accountId !== null && source.accountId === destination.accountId) throw invalidField('/destination/accountId', 'The destination is the source account itself.');
  if (source.accountId === null && destination.accountId?.startsWith('InternalAccount:') === true) {
    throw invalidField('/destination/accountId', 'Real-time funding pays external destinations; fund an internal account with its own paymentInstructions instead.');
  }
  const { price, exchangeRate, rateDetails } = await priceFor(ctx, body, source.currency, destination.currency, destination.viaCounterparty);
  const at = ctx.clock.now();
  const id = newId('Quote');
  const expiresAt = addMs(at, QUOTE_LIFETIME_MS);
  const reference = newReference('QTE');
  const details: QuoteDetails = {
    source: source.shown,
    destination: destination.shown,
    exchangeRate,
    rateDetails,
    reference,
    ...(destination.rail === undefined ? {} : { paymentRail: destination.rail }),
    ...(source.accountId === null
      ? { paymentInstructions: quotePaymentInstructions({ id, customerId: source.customerId, currency: source.currency, amount: price.totalSendingAmount, reference, expiresAt: iso(expiresAt) }) }
      : {}),
    ...(source.wallet === null ? {} : { payloadToSign: await walletSigningPayload(ctx, source.wallet, id, price.totalSendingAmount, expiresAt) }),
    ...(destination.counterpartyInformation === undefined ? {} : { counterpartyInformation: destination.counterpartyInformation }),
    ...(body.description === undefined ? {} : { description: body.description }),
    ...(body.purposeOfPayment === undefined ? {} : { purposeOfPayment: body.purposeOfPayment }),
  };
  const expiry = newJob(ctx, expireQuoteJob, expiresAt, { platformId: ctx.platformId, quoteId: id });
  const newQuote: NewQuoteRow = {
    id,
    platform_id: ctx.platformId,
    customer_id: source.customerId,
    state: 'PENDING',
    source_type: sourceIn.sourceType,
    source_account_id: source.accountId,
    destination_account_id: destination.accountId,
    sending_currency: source.currency,
    receiving_currency: destination.currency,
    total_sending_amount: price.totalSendingAmount,
    total_receiving_amount: price.totalReceivingAmount,
    fees_included: price.feesIncluded,
    transaction_id: null,
    agent_id: agentId,
    details,
    expires_at: expiresAt,
    created_at: at,
    updated_at: at,
  };
  const inserted = await scheduleWith(ctx, expiry, (job) => insertQuote(ctx.db, newQuote, job));
  let row: QuoteWithPayment = { ...inserted, transaction_status: null };
  if (source.accountId === null) row = await openFundingWait(ctx, row);
  if (body.immediatelyExecute === true) row = (await executeOpenQuote(ctx, row, undefined)).quote;
  return toQuote(row, ctx.clock.now());
}

/** A quote of the platform or, with `agentId`, only one that agent created. */
export async function getQuote(ctx: PlatformContext, quoteId: string, agentId?: string): Promise<Quote> {
  const row = await findQuote(ctx.db, ctx.platformId, quoteId);
  if (row === undefined || (agentId !== undefined && row.agent_id !== agentId)) throw notFound('QUOTE_NOT_FOUND', 'No such quote.');
  return toQuote(row, ctx.clock.now());
}
