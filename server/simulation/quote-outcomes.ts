// Sandbox outcomes of executing a quote whose destination is an external account (by
// `POST /quotes/{quoteId}/execute`, `immediatelyExecute` or `POST /sandbox/send`), chosen by the
// suffix of that account's primary identifier. Spec: the table in the description of
// `POST /quotes/{quoteId}/execute`. The source is always debited at execution.
import type { components } from '../../generated/openapi.js';
import { identifierSuffix, rowFor, type SuffixTable } from './suffix.ts';
import { A_FEW_SECONDS_MS, ABOUT_6_MINUTES_MS, type StatusChange } from './timing.ts';

/** Statuses a quote and its transaction share, so one value sets both. */
type PaymentStatus = Extract<components['schemas']['QuoteStatus'], components['schemas']['TransactionStatus']>;
type FailureReason = components['schemas']['TransactionFailureReason'];

export interface QuoteOutcome {
  /** Status of the quote and of its transaction in the execute response. */
  readonly returned: PaymentStatus;
  /** Status changes that follow, in order (each sent as an `outgoing-payment` webhook). */
  readonly later: readonly StatusChange<PaymentStatus>[];
  /** `failureReason` of the transaction once it is `FAILED`; null when it does not fail. */
  readonly failureReason: FailureReason | null;
  /** Whether the source gets the debited amount back when the payment fails. */
  readonly creditedBack: boolean;
}

const failsAfterAFewSeconds = [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }] as const;

export const QUOTE_OUTCOMES = {
  bySuffix: {
    '002': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'QUOTE_EXECUTION_FAILED', creditedBack: true },
    '003': { returned: 'PROCESSING', later: [{ status: 'COMPLETED', afterMs: ABOUT_6_MINUTES_MS }], failureReason: null, creditedBack: false },
    '004': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'COUNTERPARTY_DELIVERY_FAILED', creditedBack: true },
    // Completes, then the receiving bank returns the payment (COMPLETED is not final).
    '005': {
      returned: 'PROCESSING',
      later: [
        { status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS },
        { status: 'FAILED', afterMs: A_FEW_SECONDS_MS },
      ],
      failureReason: 'PAYMENT_RETURNED',
      creditedBack: true,
    },
    '006': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'USER_CANCELLED', creditedBack: true },
    // The payout fails and so does returning the funds: the source stays debited (support resolves it).
    '007': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'REFUND_FAILED', creditedBack: false },
  },
  otherwise: { returned: 'PROCESSING', later: [{ status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS }], failureReason: null, creditedBack: false },
} as const satisfies SuffixTable<QuoteOutcome>;

/** Outcome of executing a quote to the external account with this primary identifier. */
export function quoteOutcome(identifier: string): QuoteOutcome {
  return rowFor<QuoteOutcome>(QUOTE_OUTCOMES, identifierSuffix(identifier));
}
