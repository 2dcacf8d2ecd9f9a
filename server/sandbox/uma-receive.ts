// Sandbox: an UMA payment arrives for one of the platform's customers. It is credited to the
// customer's default UMA deposit account (an external account: the money goes straight out to it,
// no balance here changes) when that account is in the currency received, and otherwise to the
// customer's primary internal account in that currency, through the ledger. Either way it is one
// COMPLETED incoming transaction, with its webhook.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { findCustomerByUmaAddress } from '../customers/customers.repository.ts';
import { findDefaultUmaDepositAccount } from '../external-accounts/external-accounts.repository.ts';
import { findPrimaryInternalAccount } from '../internal-accounts/internal-accounts.repository.ts';
import { currency } from '../shared/currencies.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { canonicalUmaAddress } from '../shared/uma-address.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import { newReference, openPayment, ownerFields, type NewTransaction } from '../payments/payments.service.ts';
import { CREDITED_AT_ONCE } from '../simulation/payment-outcome.ts';

type Schemas = components['schemas'];

export async function receiveUmaPayment(ctx: PlatformContext, body: Schemas['SandboxUmaReceiveRequest']): Promise<Schemas['IncomingTransaction']> {
  const customer = await findCustomerByUmaAddress(ctx.db, ctx.platformId, canonicalUmaAddress(body.receiverUmaAddress));
  if (customer === undefined) throw notFound('UMA_NOT_FOUND', `No customer of this platform has the UMA address ${body.receiverUmaAddress}.`);
  const code = body.receivingCurrencyCode;
  const external = await findDefaultUmaDepositAccount(ctx.db, ctx.platformId, customer.id);
  const deposit = external?.currency === code ? external : undefined;
  const internal = deposit === undefined ? await findPrimaryInternalAccount(ctx.db, ctx.platformId, customer.id, code) : undefined;
  const accountId = deposit?.id ?? internal?.id;
  if (accountId === undefined) throw badRequest('CURRENCY_MISMATCH', `The customer has no account in ${code} to receive into.`, { currency: code });
  const reference = newReference('UMA');
  const amount = { amount: body.receivingCurrencyAmount, currency: currency(code) };
  const transaction: NewTransaction = {
    type: 'INCOMING',
    customerId: customer.id,
    internalAccountId: internal?.id ?? null,
    sourceAccountId: null,
    destinationAccountId: accountId,
    amount: body.receivingCurrencyAmount,
    currency: code,
    reference,
    details: {
      source: { sourceType: 'UMA_ADDRESS', umaAddress: body.senderUmaAddress, currency: code },
      destination: { destinationType: 'ACCOUNT', accountId, currency: code },
      ...(await ownerFields(ctx, customer.id)),
      receivedAmount: amount,
      fees: 0,
      exchangeRate: 1,
      paymentRail: 'LIGHTNING',
      counterpartyInformation: { FULL_NAME: 'Sandbox Sender' },
      reconciliationInstructions: { reference },
    },
  };
  // Into the external deposit account, the money goes straight out: no balance here changes.
  const row = await openPayment(ctx, { transaction, outcome: internal === undefined ? { ...CREDITED_AT_ONCE, balance: 'UNCHANGED' } : CREDITED_AT_ONCE });
  const received = toTransaction(row);
  if (received.type !== 'INCOMING') throw new Error('an UMA payment received must be an incoming transaction');
  return received;
}
