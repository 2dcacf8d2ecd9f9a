// The rails each kind of external account can be paid on, default first, and which of them are
// instant (settled at once, so a PROCESSING payment on them can no longer be stopped). Spec: the
// table in ExternalAccountDestinationReference.paymentRail.
import type { components } from '../../generated/openapi.js';

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
