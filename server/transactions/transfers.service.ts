// Same-currency transfers between an internal account and an external account of the same owner:
// transfer-in pulls from the external account, transfer-out pushes to it. The sandbox outcome
// (simulation/transfer-outcomes.ts) picks the first status and the changes that follow; the payments
// layer opens the payment (payments/payments.service.ts). A transfer-out from an Embedded Wallet
// needs its owner's signature: a signed retry.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { sandboxIdentifier } from '../external-accounts/account-info.ts';
import type { ExternalAccountRow } from '../external-accounts/external-accounts.repository.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { newReference, openPayment, ownerFields, type PaymentDraft, type NewTransaction } from '../payments/payments.service.ts';
import { currency } from '../shared/currencies.ts';
import { badRequest, invalidField } from '../shared/errors.ts';
import { transferInOutcome, transferOutOutcome } from '../simulation/transfer-outcomes.ts';
import { defaultRail, railFor } from '../payments/payment-rails.ts';
import { toTransaction } from '../payments/payments.mapper.ts';
import { checkSignedRetryFirst, requireWalletSignature, type SignatureHeaders, type Signed } from '../wallet-auth/signed-retry.service.ts';

type Schemas = components['schemas'];
type Transaction = Schemas['Transaction'];

/** The rules both directions share: both accounts active, one owner, one currency. */
function checkPair(internal: InternalAccountRow, external: ExternalAccountRow): void {
  requireActiveAccount(internal, 'The internal account', 'transfers need an ACTIVE account');
  requireActiveAccount(external, 'The external account', 'transfers need an ACTIVE account');
  if (internal.customer_id !== external.customer_id) {
    throw badRequest('ACCOUNT_OWNER_MISMATCH', 'The internal and the external account belong to different owners; both must be the same customer\'s, or both the platform\'s.');
  }
  if (internal.currency !== external.currency) {
    throw badRequest('CURRENCY_MISMATCH', `The internal account holds ${internal.currency} and the external account is in ${external.currency}; use a quote to convert.`, {
      internalCurrency: internal.currency,
      externalCurrency: external.currency,
    });
  }
}

export async function createTransferIn(ctx: PlatformContext, body: Schemas['TransferInRequest']): Promise<Transaction> {
  return toTransaction(await openPayment(ctx, await prepareTransferIn(ctx, body)));
}

export async function prepareTransferIn(ctx: PlatformContext, body: Schemas['TransferInRequest']): Promise<PaymentDraft> {
  const internal = await requireInternalAccount(ctx, body.destination.accountId);
  const external = await requireExternalAccount(ctx, body.source.accountId);
  checkPair(internal, external);
  return transferDraft(ctx, 'INCOMING', internal, external, { amount: body.amount, rail: defaultRail(external.account_type), description: body.description });
}

/**
 * The payment of a transfer, either way between the pair: the internal account's balance and
 * currency, the external account's rail and sandbox outcome (by the suffix of its identifier).
 */
async function transferDraft(
  ctx: PlatformContext,
  type: 'INCOMING' | 'OUTGOING',
  internal: InternalAccountRow,
  external: ExternalAccountRow,
  transfer: { amount: number; rail: Schemas['PaymentRail']; description: string | undefined },
): Promise<PaymentDraft> {
  const [from, to] = type === 'INCOMING' ? [external, internal] : [internal, external];
  const amount = { amount: transfer.amount, currency: currency(internal.currency) };
  const reference = newReference(transfer.rail);
  const transaction: NewTransaction = {
    type,
    customerId: internal.customer_id,
    internalAccountId: internal.id,
    sourceAccountId: from.id,
    destinationAccountId: to.id,
    amount: transfer.amount,
    currency: internal.currency,
    reference,
    details: {
      source: { sourceType: 'ACCOUNT', accountId: from.id, currency: from.currency },
      destination: { destinationType: 'ACCOUNT', accountId: to.id, currency: to.currency },
      ...(await ownerFields(ctx, internal.customer_id)),
      ...(type === 'OUTGOING' ? { sentAmount: amount } : {}),
      receivedAmount: amount,
      fees: 0,
      exchangeRate: 1,
      paymentRail: transfer.rail,
      ...(transfer.description === undefined ? {} : { description: transfer.description }),
      reconciliationInstructions: { reference },
    },
  };
  const identifier = sandboxIdentifier(external.account_info);
  return { transaction, outcome: type === 'INCOMING' ? transferInOutcome(identifier) : transferOutOutcome(identifier) };
}

/**
 * `POST /transfer-out`. From an Embedded Wallet, the signed retry: the first call is checked in
 * full (so the owner never signs a transfer bound to fail) and answers 202; the identical request
 * signed by a session of the wallet sends it. Other sources ignore the signature headers.
 */
export async function createTransferOut(
  ctx: PlatformContext,
  body: Schemas['TransferOutRequest'],
  headers: SignatureHeaders,
): Promise<Signed<Transaction>> {
  const source = await requireInternalAccount(ctx, body.source.accountId);
  if (source.type === 'EMBEDDED_WALLET') await checkSignedRetryFirst(ctx, { operation: 'createTransferOut', targetId: source.id, body }, headers);
  const prepared = await prepareTransferOut(ctx, body, { signedByWallet: true });
  if (source.type === 'EMBEDDED_WALLET') {
    const shown = { amount: body.amount, currency: source.currency, destinationAccountId: body.destination.accountId };
    const outcome = await requireWalletSignature(ctx, { wallet: source, operation: 'createTransferOut', target: { field: 'accountId', id: source.id }, body, shown }, headers);
    if (!outcome.signed) return outcome;
  }
  return { signed: true, result: toTransaction(await openPayment(ctx, prepared)) };
}

/**
 * `checkBalance: false` for a transfer that will wait for approval (the balance is checked then).
 * An Embedded Wallet source only with `signedByWallet`, when the caller has its owner sign (agents
 * cannot: their transfer-outs from a wallet are refused).
 */
export async function prepareTransferOut(ctx: PlatformContext, body: Schemas['TransferOutRequest'], options: { checkBalance?: boolean; signedByWallet?: boolean } = {}): Promise<PaymentDraft> {
  const internal = await requireInternalAccount(ctx, body.source.accountId);
  if (internal.type === 'EMBEDDED_WALLET' && options.signedByWallet !== true) {
    throw invalidField(
      '/source/accountId',
      "An agent cannot send from an Embedded Wallet: its owner signs every payment out. Create a quote from it and execute it with the owner's Service-Wallet-Signature.",
    );
  }
  const external = await requireExternalAccount(ctx, body.destination.accountId);
  checkPair(internal, external);
  const rail = railFor(external.account_type, body.destination.paymentRail);
  // Checked here for every outcome, so the sandbox's refusals never hide a real shortfall; the
  // ledger's conditional debit is what makes it hold under concurrency.
  if (options.checkBalance !== false && internal.balance < body.amount) throw badRequest('INSUFFICIENT_FUNDS', `The balance of ${internal.id} is less than ${body.amount}.`, { accountId: internal.id });
  return transferDraft(ctx, 'OUTGOING', internal, external, { amount: body.amount, rail, description: body.remittanceInformation });
}
