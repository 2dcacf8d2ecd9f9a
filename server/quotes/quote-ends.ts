// The two ends of a quote, checked and resolved: the source (an internal account, or real-time
// funding for a customer or the platform) and the destination (an internal or external account,
// or an UMA address after its lookup), with what the quote shows of each.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { requireCustomer } from '../customers/customers.service.ts';
import { hasRate } from '../exchange-rates/sandbox-market.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { requireActiveAccount } from '../payments/account-rules.ts';
import { railFor } from '../payments/payment-rails.ts';
import type { LookupRow } from '../receiver/receiver.repository.ts';
import { checkPayerData, requireLookupOf } from '../receiver/receiver.service.ts';
import { badRequest, invalidField } from '../shared/errors.ts';
import { lookupSandboxUma } from '../simulation/uma-addresses.ts';

type Schemas = components['schemas'];
type SourceIn = Schemas['QuoteSource'];
type DestinationIn = Schemas['QuoteDestination'];

export interface Source {
  shown: Schemas['Quote']['source'];
  customerId: string | null;
  currency: string;
  /** The internal account debited at execution; null for real-time funding. */
  accountId: string | null;
  /** The source account when it is an Embedded Wallet: execution needs its owner's signature. */
  wallet: InternalAccountRow | null;
}

export interface Destination {
  shown: Schemas['Quote']['destination'];
  currency: string;
  accountId: string | null;
  /** The receiving counterparty converts (UMA): the service sends in the sending currency. */
  viaCounterparty: boolean;
  lookup: LookupRow | null;
  counterpartyInformation?: Record<string, string>;
  rail?: Schemas['PaymentRail'];
}

export async function resolveSource(ctx: PlatformContext, source: SourceIn): Promise<Source> {
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

export async function resolveDestination(ctx: PlatformContext, destination: DestinationIn, body: { lookupId?: string; senderCustomerInfo?: Record<string, string> }, customerId: string | null): Promise<Destination> {
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
