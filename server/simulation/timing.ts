// When the later status changes of sandbox payments happen. The spec speaks of "a few seconds",
// "about 30 seconds" and "about 6 minutes"; these are the values the sandbox uses for them.
import type { components } from '../../generated/openapi.js';

export const A_FEW_SECONDS_MS = 3_000;
export const ABOUT_30_SECONDS_MS = 30_000;
export const ABOUT_6_MINUTES_MS = 6 * 60_000;

/** A status change that follows, `afterMs` after the previous status. */
export interface StatusChange<Status = components['schemas']['TransactionStatus']> {
  readonly status: Status;
  readonly afterMs: number;
}
