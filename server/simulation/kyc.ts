// Sandbox KYC: the identity check of a person is decided at once from the last 3 characters of
// its name (`fullName` of an individual customer, `personalInfo.lastName` of a beneficial owner).
// Spec: the table in the `KycStatus` schema's description.
import type { components } from '../../generated/openapi.js';
import { lastThree, rowFor, type SuffixTable } from './suffix.ts';

/** The statuses a sandbox check can end in (`UNVERIFIED` is only the state before any check). */
export type KycOutcome = Extract<components['schemas']['KycStatus'], 'PENDING' | 'REJECTED' | 'APPROVED'>;

export const KYC_OUTCOMES = {
  bySuffix: {
    '001': 'PENDING', // needs a manual review, which never comes in the sandbox: it stays pending
    '002': 'REJECTED',
  },
  otherwise: 'APPROVED',
} as const satisfies SuffixTable<KycOutcome>;

/** `kycStatus` for a person whose name (full name or last name) is `name`. */
export function kycOutcome(name: string): KycOutcome {
  return rowFor<KycOutcome>(KYC_OUTCOMES, lastThree(name));
}
