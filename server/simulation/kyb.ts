// Sandbox KYB: the verification of a business is decided at once from the last 3 digits of
// `businessInfo.registrationNumber`. Same outcomes as KYC, but its own table: the spec documents
// it separately and the two may diverge. Spec: the table in the `KybStatus` schema's description.
import type { components } from '../../generated/openapi.js';
import { lastThree, rowFor, type SuffixTable } from './suffix.ts';

/** The statuses a sandbox verification can end in (`UNVERIFIED` is only the state before any). */
export type KybOutcome = Extract<components['schemas']['KybStatus'], 'PENDING' | 'REJECTED' | 'APPROVED'>;

export const KYB_OUTCOMES = {
  bySuffix: {
    '001': 'PENDING', // needs a manual review, which never comes in the sandbox: it stays pending
    '002': 'REJECTED',
  },
  otherwise: 'APPROVED',
} as const satisfies SuffixTable<KybOutcome>;

/** `kybStatus` for a business whose registration number is `registrationNumber`. */
export function kybOutcome(registrationNumber: string): KybOutcome {
  return rowFor<KybOutcome>(KYB_OUTCOMES, lastThree(registrationNumber));
}
