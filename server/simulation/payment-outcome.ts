// How a sandbox payment unfolds: one type for every payment (transfers, quotes, funding, receipts),
// filled by the outcome tables of the spec (transfer-outcomes.ts, quote-outcomes.ts) and carried out
// by the payments layer (payments/payments.service.ts): the status the request answers with, the
// changes that follow, and what happens to the balance.
import type { components } from '../../generated/openapi.js';
import type { StatusChange } from './timing.ts';

export interface PaymentOutcome {
  /** Status of the transaction when the request that opens (or pays) it returns. */
  readonly returned: components['schemas']['TransactionStatus'];
  /** Status changes that follow, in order (each sent as a webhook). */
  readonly later: readonly StatusChange[];
  /** `failureReason` of the transaction once it is `FAILED`; null when it does not fail. */
  readonly failureReason: components['schemas']['TransactionFailureReason'] | null;
  /** What the internal account's balance gets when the payment is recorded. */
  readonly balance: 'DEBITED' | 'CREDITED' | 'UNCHANGED';
  /** Whether a debited amount comes back to the account when the payment later fails. */
  readonly creditedBack: boolean;
}

/** Money that arrives and is credited at once (sandbox funding, a payment received). */
export const CREDITED_AT_ONCE: PaymentOutcome = { returned: 'COMPLETED', later: [], failureReason: null, balance: 'CREDITED', creditedBack: false };

/** A payment recorded before its money moves (a real-time-funded quote, until its funds arrive). */
export const WAITING: PaymentOutcome = { returned: 'PENDING', later: [], failureReason: null, balance: 'UNCHANGED', creditedBack: false };
