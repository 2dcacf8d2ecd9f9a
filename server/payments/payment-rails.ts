// The rails each kind of external account can be paid on, default first, and which of them are
// instant (settled at once, so a PROCESSING payment on them can no longer be stopped). Spec: the
// table in ExternalAccountDestinationReference.paymentRail.
import type { components } from '../../generated/openapi.js';
import { invalidField } from '../shared/errors.ts';

type PaymentRail = components['schemas']['PaymentRail'];
type AccountType = components['schemas']['ExternalAccountInfo']['accountType'];

export const RAILS: Record<AccountType, readonly [PaymentRail, ...PaymentRail[]]> = {
  USD_ACCOUNT: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
  EUR_ACCOUNT: ['SEPA', 'SEPA_INSTANT', 'SWIFT'],
  GBP_ACCOUNT: ['FASTER_PAYMENTS', 'SWIFT'],
  MXN_ACCOUNT: ['SPEI'],
  AED_ACCOUNT: ['UAEFTS', 'SWIFT'],
  SPARK_WALLET: ['SPARK', 'LIGHTNING'],
};

const INSTANT: ReadonlySet<PaymentRail> = new Set(['RTP', 'FEDNOW', 'SEPA_INSTANT', 'FASTER_PAYMENTS', 'SPEI', 'SPARK', 'LIGHTNING']);

export const defaultRail = (accountType: AccountType): PaymentRail => RAILS[accountType][0];
export const canReceiveOn = (accountType: AccountType, rail: PaymentRail): boolean => RAILS[accountType].includes(rail);
export const isInstant = (rail: PaymentRail): boolean => INSTANT.has(rail);

/** The rail a payment to an account of `accountType` goes on: the one asked for, which the account must accept, or its default. */
export function railFor(accountType: AccountType, requested: PaymentRail | undefined): PaymentRail {
  const rail = requested ?? defaultRail(accountType);
  if (!canReceiveOn(accountType, rail)) throw invalidField('/destination/paymentRail', `A ${accountType} can be paid on ${RAILS[accountType].join(', ')}, not ${rail}.`, 'enum');
  return rail;
}
