// How the payment of an executed quote unfolds in the sandbox, by destination: another internal
// account is credited at once; an external account follows the suffix table of its identifier
// (simulation/quote-outcomes.ts); an UMA address follows the sandbox UMA destinations.
import type { components } from '../../generated/openapi.js';
import { quoteOutcome } from '../simulation/quote-outcomes.ts';
import { A_FEW_SECONDS_MS, type StatusChange } from '../simulation/timing.ts';
import { lookupSandboxUma } from '../simulation/uma-addresses.ts';

type FailureReason = components['schemas']['TransactionFailureReason'];

export interface PaymentPlan {
  /** The status the payment is in when execution returns. */
  readonly returned: Extract<components['schemas']['TransactionStatus'], 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED'>;
  readonly later: readonly StatusChange[];
  /** Set on the transaction by the change that makes it FAILED. */
  readonly failureReason: FailureReason | null;
}

export type PlannedDestination = { kind: 'INTERNAL' } | { kind: 'EXTERNAL'; identifier: string } | { kind: 'UMA'; address: string };

const completesSoon: PaymentPlan = { returned: 'PROCESSING', later: [{ status: 'COMPLETED', afterMs: A_FEW_SECONDS_MS }], failureReason: null };

export function planPayment(destination: PlannedDestination): PaymentPlan {
  switch (destination.kind) {
    case 'INTERNAL':
      return { returned: 'COMPLETED', later: [], failureReason: null };
    case 'EXTERNAL': {
      const outcome = quoteOutcome(destination.identifier);
      return { returned: outcome.returned, later: outcome.later, failureReason: outcome.failureReason };
    }
    case 'UMA': {
      const found = lookupSandboxUma(destination.address);
      if (found.kind !== 'DESTINATION' || found.endsAs === 'COMPLETED') return completesSoon;
      // "Stays pending a long time": nothing is scheduled.
      if (found.endsAs === 'PROCESSING') return { returned: 'PROCESSING', later: [], failureReason: null };
      return { returned: 'PROCESSING', later: [{ status: 'FAILED', afterMs: A_FEW_SECONDS_MS }], failureReason: found.failureReason };
    }
  }
}
