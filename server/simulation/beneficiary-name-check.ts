// Sandbox beneficiary name check, run when an external account is created: the `1xx` suffixes of
// the primary identifier are reserved for it. Spec: the table in the `ExternalAccountInfo` schema's
// description. Wallets have no beneficiary; the caller decides that they get no status (`105`
// still rejects them).
import type { components } from '../../generated/openapi.js';
import { identifierSuffix, rowFor, type SuffixTable } from './suffix.ts';

type VerificationStatus = components['schemas']['BeneficiaryVerificationStatus'];
type Error400Code = NonNullable<components['schemas']['Error400']['code']>;

export type NameCheckOutcome =
  /** The check ran: `beneficiaryVerificationStatus` of the new account. */
  | { readonly result: 'CHECKED'; readonly status: VerificationStatus }
  /** The account is refused and nothing is created. */
  | { readonly result: 'REJECTED'; readonly httpStatus: 400; readonly code: Error400Code };

export const BENEFICIARY_NAME_CHECK = {
  bySuffix: {
    '102': { result: 'CHECKED', status: 'NOT_MATCHED' },
    '103': { result: 'CHECKED', status: 'PARTIAL_MATCH' },
    '104': { result: 'CHECKED', status: 'PENDING' },
    '105': { result: 'REJECTED', httpStatus: 400, code: 'INVALID_BANK_ACCOUNT' },
    '106': { result: 'CHECKED', status: 'UNSUPPORTED' },
    '107': { result: 'CHECKED', status: 'CHECKED_BY_RECEIVING_FI' },
  },
  otherwise: { result: 'CHECKED', status: 'MATCHED' },
} as const satisfies SuffixTable<NameCheckOutcome>;

/** The name check an account with this primary identifier gets. */
export function beneficiaryNameCheck(identifier: string): NameCheckOutcome {
  return rowFor<NameCheckOutcome>(BENEFICIARY_NAME_CHECK, identifierSuffix(identifier));
}
