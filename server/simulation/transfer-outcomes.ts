// Sandbox outcomes of same-currency transfers (`POST /transfer-out`, `POST /transfer-in` and their
// agent forms), chosen by the suffix of the external account's primary identifier. Spec: the
// tables in the descriptions of those two operations. The rows say everything the money movement
// needs: what the 201 shows, what follows and when, and what happens to the balance.
import type { PaymentOutcome } from './payment-outcome.ts';
import { identifierSuffix, rowFor, type SuffixTable } from './suffix.ts';
import { A_FEW_SECONDS_MS, ABOUT_30_SECONDS_MS } from './timing.ts';

/** Push to an external account: the balance is debited when the transfer is recorded. */
export const TRANSFER_OUT_OUTCOMES = {
  bySuffix: {
    // 002 and 003 are refused before anything moves: returned FAILED, the balance untouched.
    '002': { returned: 'FAILED', later: [], failureReason: 'INSUFFICIENT_FUNDS', balance: 'UNCHANGED', creditedBack: false },
    '003': { returned: 'FAILED', later: [], failureReason: 'ACCOUNT_CLOSED', balance: 'UNCHANGED', creditedBack: false },
    '004': {
      returned: 'PROCESSING',
      later: [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }],
      failureReason: 'BANK_REJECTED',
      balance: 'DEBITED',
      creditedBack: true,
    },
    '005': {
      returned: 'PENDING',
      later: [{ status: 'FAILED', afterMs: ABOUT_30_SECONDS_MS }],
      failureReason: 'BANK_REJECTED',
      balance: 'DEBITED',
      creditedBack: true,
    },
  },
  otherwise: { returned: 'COMPLETED', later: [], failureReason: null, balance: 'DEBITED', creditedBack: false },
} as const satisfies SuffixTable<PaymentOutcome>;

/** Pull from an external account: the balance is credited only when the transfer completes. */
export const TRANSFER_IN_OUTCOMES = {
  bySuffix: {
    // 002 and 003 are refused before anything moves: returned FAILED, the balance untouched.
    '002': { returned: 'FAILED', later: [], failureReason: 'INSUFFICIENT_FUNDS', balance: 'UNCHANGED', creditedBack: false },
    '003': { returned: 'FAILED', later: [], failureReason: 'ACCOUNT_CLOSED', balance: 'UNCHANGED', creditedBack: false },
    '004': {
      returned: 'PROCESSING',
      later: [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }],
      failureReason: 'BANK_REJECTED',
      balance: 'UNCHANGED',
      creditedBack: false,
    },
    '005': {
      returned: 'PENDING',
      later: [{ status: 'FAILED', afterMs: ABOUT_30_SECONDS_MS }],
      failureReason: 'BANK_REJECTED',
      balance: 'UNCHANGED',
      creditedBack: false,
    },
  },
  otherwise: { returned: 'COMPLETED', later: [], failureReason: null, balance: 'CREDITED', creditedBack: false },
} as const satisfies SuffixTable<PaymentOutcome>;

/** Outcome of a transfer-out to the external account with this primary identifier. */
export function transferOutOutcome(identifier: string): PaymentOutcome {
  return rowFor<PaymentOutcome>(TRANSFER_OUT_OUTCOMES, identifierSuffix(identifier));
}

/** Outcome of a transfer-in from the external account with this primary identifier. */
export function transferInOutcome(identifier: string): PaymentOutcome {
  return rowFor<PaymentOutcome>(TRANSFER_IN_OUTCOMES, identifierSuffix(identifier));
}
