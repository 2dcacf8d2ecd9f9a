// The transaction that carries out a quote: an outgoing payment of `totalSendingAmount` from the
// source, delivering `totalReceivingAmount` to the destination, with the quote's rate and fees.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { currency } from '../shared/currencies.ts';
import { ownerFields, type NewTransaction } from '../payments/payments.service.ts';
import type { QuoteRow } from './quotes.repository.ts';

type Schemas = components['schemas'];

function transactionSource(quote: QuoteRow): Schemas['TransactionSource'] {
  const source = quote.details.source;
  return source.sourceType === 'ACCOUNT' ? { sourceType: 'ACCOUNT', accountId: source.accountId, currency: quote.sending_currency } : { sourceType: 'REALTIME_FUNDING', currency: source.currency };
}

function transactionDestination(quote: QuoteRow): Schemas['TransactionDestination'] {
  const destination = quote.details.destination;
  return destination.destinationType === 'ACCOUNT'
    ? { destinationType: 'ACCOUNT', accountId: destination.accountId, currency: quote.receiving_currency }
    : { destinationType: 'UMA_ADDRESS', umaAddress: destination.umaAddress, currency: quote.receiving_currency };
}

export async function quoteTransactionDraft(ctx: PlatformContext, quote: QuoteRow): Promise<NewTransaction> {
  const d = quote.details;
  const rail = d.paymentRail ?? (d.destination.destinationType === 'UMA_ADDRESS' ? 'LIGHTNING' : undefined);
  return {
    type: 'OUTGOING',
    customerId: quote.customer_id,
    internalAccountId: quote.source_account_id,
    sourceAccountId: quote.source_account_id,
    destinationAccountId: quote.destination_account_id,
    amount: quote.total_sending_amount,
    currency: quote.sending_currency,
    reference: d.reference,
    details: {
      source: transactionSource(quote),
      destination: transactionDestination(quote),
      ...(await ownerFields(ctx, quote.customer_id)),
      sentAmount: { amount: quote.total_sending_amount, currency: currency(quote.sending_currency) },
      receivedAmount: { amount: quote.total_receiving_amount, currency: currency(quote.receiving_currency) },
      fees: quote.fees_included,
      exchangeRate: d.exchangeRate,
      quoteId: quote.id,
      ...(rail === undefined ? {} : { paymentRail: rail }),
      ...(d.description === undefined ? {} : { description: d.description }),
      ...(d.counterpartyInformation === undefined ? {} : { counterpartyInformation: d.counterpartyInformation }),
      reconciliationInstructions: { reference: d.reference },
      rateDetails: d.rateDetails,
    },
  };
}
