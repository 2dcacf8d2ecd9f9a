// Sandbox outcomes of executing a quote (by `POST /quotes/{quoteId}/execute`, `immediatelyExecute`
// or `POST /sandbox/send`), by destination: another internal account is credited at once; an
// external account follows the suffix table of its primary identifier (spec: the table in the
// description of `POST /quotes/{quoteId}/execute`); an UMA address follows the sandbox UMA
// destinations. The source is always debited at execution.
import type { PaymentOutcome } from './payment-outcome.ts';
import { identifierSuffix, rowFor, type SuffixTable } from './suffix.ts';
import { A_FEW_SECONDS_MS, ABOUT_6_MINUTES_MS } from './timing.ts';
import { lookupSandboxUma } from './uma-addresses.ts';

const failsAfterAFewSeconds = [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }] as const;
const completesAfterAFewSeconds = [{ status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS }] as const;

export const QUOTE_OUTCOMES = {
  bySuffix: {
    '002': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'QUOTE_EXECUTION_FAILED', balance: 'DEBITED', creditedBack: true },
    '003': { returned: 'PROCESSING', later: [{ status: 'COMPLETED', afterMs: ABOUT_6_MINUTES_MS }], failureReason: null, balance: 'DEBITED', creditedBack: false },
    '004': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'COUNTERPARTY_DELIVERY_FAILED', balance: 'DEBITED', creditedBack: true },
    // Completes, then the receiving bank returns the payment (COMPLETED is not final).
    '005': {
      returned: 'PROCESSING',
      later: [
        { status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS },
        { status: 'FAILED', afterMs: A_FEW_SECONDS_MS },
      ],
      failureReason: 'PAYMENT_RETURNED',
      balance: 'DEBITED',
      creditedBack: true,
    },
    '006': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'USER_CANCELLED', balance: 'DEBITED', creditedBack: true },
    // The payout fails and so does returning the funds: the source stays debited (support resolves it).
    '007': { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: 'REFUND_FAILED', balance: 'DEBITED', creditedBack: false },
  },
  otherwise: { returned: 'PROCESSING', later: completesAfterAFewSeconds, failureReason: null, balance: 'DEBITED', creditedBack: false },
} as const satisfies SuffixTable<PaymentOutcome>;

/** Outcome of executing a quote to the external account with this primary identifier. */
export function quoteOutcome(identifier: string): PaymentOutcome {
  return rowFor<PaymentOutcome>(QUOTE_OUTCOMES, identifierSuffix(identifier));
}

/** Where an executed quote pays. */
export type QuotePaidTo = { kind: 'INTERNAL' } | { kind: 'EXTERNAL'; identifier: string } | { kind: 'UMA'; address: string };

/** Outcome of executing a quote, by its destination. */
export function quotePaymentOutcome(destination: QuotePaidTo): PaymentOutcome {
  switch (destination.kind) {
    case 'INTERNAL':
      return { returned: 'COMPLETED', later: [], failureReason: null, balance: 'DEBITED', creditedBack: false };
    case 'EXTERNAL':
      return quoteOutcome(destination.identifier);
    case 'UMA': {
      const found = lookupSandboxUma(destination.address);
      if (found.kind !== 'DESTINATION' || found.endsAs === 'COMPLETED') return QUOTE_OUTCOMES.otherwise;
      // "Stays pending a long time": nothing is scheduled.
      if (found.endsAs === 'PROCESSING') return { returned: 'PROCESSING', later: [], failureReason: null, balance: 'DEBITED', creditedBack: false };
      return { returned: 'PROCESSING', later: failsAfterAFewSeconds, failureReason: found.failureReason, balance: 'DEBITED', creditedBack: found.failureReason !== 'REFUND_FAILED' };
    }
  }
}
