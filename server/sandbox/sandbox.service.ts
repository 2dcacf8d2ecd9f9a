// Sandbox funding: credits an internal account through the ledger, as a COMPLETED incoming
// transaction from the platform's sandbox funding account (the dispatcher's Idempotency-Key
// handling makes a replay answer the stored response without crediting twice).
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { toInternalAccount } from '../internal-accounts/internal-accounts.mapper.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { currency } from '../shared/currencies.ts';
import { newReference, openPayment, ownerFields, type NewTransaction } from '../payments/payments.service.ts';
import { CREDITED_AT_ONCE } from '../simulation/payment-outcome.ts';

type Account = Awaited<ReturnType<typeof requireInternalAccount>>;

/** A payment arriving in `accountId` from outside the API, as openPayment takes it: what every such draft holds, and `details` of its own. */
export async function incomingDraft(ctx: PlatformContext, accountId: string, account: Account, amount: number, reference: string, details: Partial<NewTransaction['details']>): Promise<NewTransaction> {
  return {
    type: 'INCOMING',
    customerId: account.customer_id,
    internalAccountId: accountId,
    sourceAccountId: null,
    destinationAccountId: accountId,
    amount,
    currency: account.currency,
    reference,
    details: {
      destination: { destinationType: 'ACCOUNT', accountId, currency: account.currency },
      receivedAmount: { amount, currency: currency(account.currency) },
      ...(await ownerFields(ctx, account.customer_id)),
      ...details,
      reconciliationInstructions: { reference },
    },
  };
}

export async function fundInternalAccount(ctx: PlatformContext, accountId: string, amount: number): Promise<components['schemas']['InternalAccount']> {
  const account = await requireInternalAccount(ctx, accountId);
  requireActiveAccount(account, 'The account', 'only ACTIVE accounts can be funded');
  const transaction = await incomingDraft(ctx, accountId, account, amount, newReference('SANDBOX'), { description: 'Sandbox funding' });
  await openPayment(ctx, { transaction, outcome: CREDITED_AT_ONCE, fundedFrom: 'SANDBOX_FUNDING' });
  return toInternalAccount(await requireInternalAccount(ctx, accountId));
}
