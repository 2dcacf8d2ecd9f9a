// Quotes: a price for moving money from a source to a destination, locked until `expiresAt`.
// Creation checks both ends, prices the amount (pricing.ts) and records the quote; a real-time-
// funded quote also opens its transaction, waiting for the funds. Execution is quote-execution.ts.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context.ts';
import { requireCustomer } from '../customers/customers.service.ts';
import type { QuoteDetails } from '../db/schema.ts';
import { defaultLimits, hasRate, multiplier, rateWindow } from '../exchange-rates/sandbox-market.ts';
import { getConfig } from '../platform/platform.service.ts';
import { feesFor } from '../exchange-rates/fees.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { newJob, scheduleWith } from '../jobs/schedule.ts';
import { checkPayerData, requireLookupOf } from '../receiver/receiver.service.ts';
import type { LookupRow } from '../receiver/receiver.repository.ts';
import { addMs, iso } from '../shared/clock.ts';
import { badRequest, invalidField, notFound } from '../shared/errors.ts';
import { currency } from '../shared/currencies.ts';
import { decimalNumber, ONE } from '../shared/exact-decimal.ts';
import { newId } from '../shared/ids.ts';
import { lookupSandboxUma } from '../simulation/uma-addresses.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { railFor } from '../payments/payment-rails.ts';
import { newReference, openPayment } from '../payments/payments.service.ts';
import { WAITING } from '../simulation/payment-outcome.ts';
import { quotePaymentInstructions } from './payment-instructions.ts';
import { priceQuote, rateDetailsOf, type Price, type PriceTerms } from './pricing.ts';
import { executeOpenQuote } from './quote-execution.ts';
import { issueSigningRequest } from '../wallet-auth/signed-retry.service.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { quoteTransactionDraft } from './quote-transaction.ts';
import { expireQuoteJob } from './quotes.jobs.ts';
import { toQuote } from './quotes.mapper.ts';
import { findQuote, insertQuote, linkQuoteTransaction, type NewQuoteRow, type QuoteRow, type QuoteWithPayment } from './quotes.repository.ts';

type Schemas = components['schemas'];
type Quote = Schemas['Quote'];
type SourceIn = Schemas['QuoteSource'];
type DestinationIn = Schemas['QuoteDestination'];
type PlatformConfig = Schemas['PlatformConfig'];

/** How long a quote holds its price: the spec's "typically 1 to 5 minutes", 5 in the sandbox. */
export const QUOTE_LIFETIME_MS = 5 * 60_000;

interface Source {
  shown: Schemas['Quote']['source'];
  customerId: string | null;
  currency: string;
  /** The internal account debited at execution; null for real-time funding. */
  accountId: string | null;
  /** The source account when it is an Embedded Wallet: execution needs its owner's signature. */
  wallet: InternalAccountRow | null;
}

interface Destination {
  shown: Schemas['Quote']['destination'];
  currency: string;
  accountId: string | null;
  /** The receiving counterparty converts (UMA): the service sends in the sending currency. */
  viaCounterparty: boolean;
  lookup: LookupRow | null;
  counterpartyInformation?: Record<string, string>;
  rail?: Schemas['PaymentRail'];
}

async function resolveSource(ctx: PlatformContext, source: SourceIn): Promise<Source> {
  if (source.sourceType === 'REALTIME_FUNDING') {
    if (!hasRate(source.currency)) throw invalidField('/source/currency', `${source.currency} is not a currency the sandbox can convert.`, 'enum');
    if (source.customerId !== undefined) await requireCustomer(ctx, source.customerId);
    return { shown: source, customerId: source.customerId ?? null, currency: source.currency, accountId: null, wallet: null };
  }
  if (source.accountId.startsWith('ExternalAccount:')) {
    throw invalidField('/source/accountId', 'The sandbox cannot pull from external accounts for a quote: move the funds in with POST /transfer-in first, then quote from the internal account.');
  }
  const account = await requireInternalAccount(ctx, source.accountId);
  requireActiveAccount(account, 'The source account', 'quotes need an ACTIVE account');
  let customerId = account.customer_id;
  if (source.customerId !== undefined) {
    // A customer's account pays for that customer only; a platform account may pay for any customer.
    if (account.customer_id !== null && account.customer_id !== source.customerId) {
      throw badRequest('ACCOUNT_OWNER_MISMATCH', 'source.customerId is not the owner of the source account.');
    }
    await requireCustomer(ctx, source.customerId);
    customerId = source.customerId;
  }
  return {
    shown: { sourceType: 'ACCOUNT', accountId: account.id, ...(customerId === null ? {} : { customerId }) },
    customerId,
    currency: account.currency,
    accountId: account.id,
    wallet: account.type === 'EMBEDDED_WALLET' ? account : null,
  };
}

async function resolveDestination(ctx: PlatformContext, destination: DestinationIn, body: { lookupId?: string; senderCustomerInfo?: Record<string, string> }, customerId: string | null): Promise<Destination> {
  if (destination.destinationType === 'UMA_ADDRESS') {
    if (body.lookupId === undefined) throw badRequest('LOOKUP_REQUIRED', 'Quotes to an UMA address need the lookupId of GET /receiver/uma/{receiverUmaAddress}.');
    const lookup = await requireLookupOf(ctx, body.lookupId, 'UMA', destination.umaAddress);
    const currency = destination.currency ?? lookup.currencies[0];
    if (currency === undefined || !lookup.currencies.includes(currency)) {
      throw badRequest('CURRENCY_MISMATCH', `${destination.umaAddress} is paid in ${lookup.currencies.join(', ')}, not ${destination.currency ?? 'nothing'}.`, { supportedCurrencies: lookup.currencies });
    }
    checkPayerData(lookup, body.senderCustomerInfo);
    const sandbox = lookupSandboxUma(destination.umaAddress);
    return {
      shown: { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency },
      currency,
      accountId: null,
      viaCounterparty: true,
      lookup,
      counterpartyInformation: { FULL_NAME: sandbox.kind === 'DESTINATION' ? 'Sandbox Receiver' : 'UMA Receiver' },
    };
  }
  const lookup = body.lookupId === undefined ? null : await requireLookupOf(ctx, body.lookupId, 'EXTERNAL_ACCOUNT', destination.accountId);
  if (lookup !== null) checkPayerData(lookup, body.senderCustomerInfo);
  if (destination.accountId.startsWith('InternalAccount:')) {
    if (destination.paymentRail !== undefined) throw invalidField('/destination/paymentRail', 'Internal accounts are credited directly: give no paymentRail.');
    const account = await requireInternalAccount(ctx, destination.accountId);
    requireActiveAccount(account, 'The destination account', 'it cannot receive');
    return { shown: { destinationType: 'ACCOUNT', accountId: account.id }, currency: account.currency, accountId: account.id, viaCounterparty: false, lookup };
  }
  const account = await requireExternalAccount(ctx, destination.accountId);
  requireActiveAccount(account, 'The destination account', 'it cannot receive');
  if (account.customer_id !== customerId) {
    throw badRequest('ACCOUNT_OWNER_MISMATCH', 'The destination external account is not registered by the customer (or platform) the quote pays for.');
  }
  const rail = railFor(account.account_type, destination.paymentRail);
  const holder = beneficiaryName(account.account_info);
  return {
    shown: { destinationType: 'ACCOUNT', accountId: account.id, paymentRail: rail },
    currency: account.currency,
    accountId: account.id,
    viaCounterparty: false,
    lookup,
    rail,
    ...(holder === undefined ? {} : { counterpartyInformation: { FULL_NAME: holder } }),
  };
}

/** The name the bank account is held in, as its beneficiary was given. */
function beneficiaryName(info: Schemas['ExternalAccountInfo']): string | undefined {
  if (!('beneficiary' in info) || info.beneficiary === undefined) return undefined;
  return info.beneficiary.fullName;
}

/**
 * The amount limits a priced quote must respect: the platform's per-transaction range of the
 * sending currency (when it configured one) and the range the receiver accepts (what its lookup shows).
 */
function checkLimits(config: PlatformConfig, price: Price, sending: string, receiving: string, viaCounterparty: boolean): void {
  const configured = config.supportedCurrencies.find((c) => c.currencyCode === sending);
  if (configured !== undefined && (price.totalSendingAmount < configured.minAmount || price.totalSendingAmount > configured.maxAmount)) {
    throw badRequest('INVALID_AMOUNT', `The platform sends ${sending} between ${configured.minAmount} and ${configured.maxAmount} per payment; this quote sends ${price.totalSendingAmount}.`, {
      minAmount: configured.minAmount,
      maxAmount: configured.maxAmount,
    });
  }
  const receiver = defaultLimits(receiving);
  if (viaCounterparty && (price.totalReceivingAmount < receiver.min || price.totalReceivingAmount > receiver.max)) {
    throw badRequest('INVALID_AMOUNT', `The receiver accepts between ${receiver.min} and ${receiver.max} ${receiving}; this quote delivers ${price.totalReceivingAmount}.`, { min: receiver.min, max: receiver.max });
  }
}

function termsFor(ctx: PlatformContext, config: PlatformConfig, from: string, to: string, viaCounterparty: boolean): PriceTerms {
  if (!hasRate(to)) throw badRequest('CURRENCY_MISMATCH', `The sandbox cannot deliver ${to}.`);
  const m = multiplier(rateWindow(ctx.clock.now()), from, to);
  const fees = feesFor(config, from);
  return viaCounterparty ? { serviceMultiplier: ONE, counterpartyMultiplier: m, counterpartyFixedFee: 0, ...fees } : { serviceMultiplier: m, counterpartyFixedFee: 0, ...fees };
}

function priced(terms: PriceTerms, body: Schemas['QuoteCreateRequest'], sending: string, receiving: string): Price {
  const price = priceQuote(terms, body.lockedCurrencySide, body.lockedCurrencyAmount, { sending: currency(sending).decimals, receiving: currency(receiving).decimals });
  if (price === 'BELOW_FEES') throw badRequest('INVALID_AMOUNT', 'The amount does not cover the fees of this quote; quote a larger amount.', { field: '/lockedCurrencyAmount' });
  if (price === 'ABOVE_LIMIT') throw badRequest('INVALID_AMOUNT', 'The other side of this quote would exceed 9000000000000000, the largest amount a payment can carry.', { field: '/lockedCurrencyAmount' });
  return price;
}

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
  const config = await getConfig(ctx);
  const terms = termsFor(ctx, config, source.currency, destination.currency, destination.viaCounterparty);
  const price = priced(terms, body, source.currency, destination.currency);
  checkLimits(config, price, source.currency, destination.currency, destination.viaCounterparty);
  const at = ctx.clock.now();
  const id = newId('Quote');
  const expiresAt = addMs(at, QUOTE_LIFETIME_MS);
  const reference = newReference('QTE');
  const details: QuoteDetails = {
    source: source.shown,
    destination: destination.shown,
    exchangeRate: decimalNumber(price.exchangeRate),
    rateDetails: rateDetailsOf(terms, price),
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

/** The signing request of a quote from an Embedded Wallet: one signature executes it, until it expires. */
async function walletSigningPayload(ctx: PlatformContext, wallet: InternalAccountRow, quoteId: string, totalSendingAmount: number, expiresAt: Date): Promise<string> {
  const action = { wallet, operation: 'executeQuote', target: { field: 'quoteId', id: quoteId }, shown: { totalSendingAmount, sendingCurrency: wallet.currency } } as const;
  return (await issueSigningRequest(ctx, action, expiresAt)).payload;
}

/** A real-time-funded quote's transaction exists from the start, PENDING until its funds arrive. */
async function openFundingWait(ctx: PlatformContext, quote: QuoteRow): Promise<QuoteWithPayment> {
  const transaction = await openPayment(ctx, { transaction: await quoteTransactionDraft(ctx, quote), outcome: WAITING });
  return { ...(await linkQuoteTransaction(ctx.db, quote.id, transaction.id, ctx.clock.now())), transaction_status: transaction.status };
}

/** A quote of the platform or, with `agentId`, only one that agent created. */
export async function getQuote(ctx: PlatformContext, quoteId: string, agentId?: string): Promise<Quote> {
  const row = await findQuote(ctx.db, ctx.platformId, quoteId);
  if (row === undefined || (agentId !== undefined && row.agent_id !== agentId)) throw notFound('QUOTE_NOT_FOUND', 'No such quote.');
  return toQuote(row, ctx.clock.now());
}
