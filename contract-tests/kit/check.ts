// What a check is: its id, the operations and status it is about, the rule, what it needs, and how
// it runs. How it fails is in failure.ts (below the world a check runs with, which fails checks too).
import type { World } from './world.ts';

export { CheckFailure, CheckSkipped, contains, expectations, type Expectations } from './failure.ts';

/**
 * What a check needs beyond a reachable implementation and a token with every permission:
 *   state            an implementation that keeps what it is sent (not a mock)
 *   sandbox          the sandbox operations (fund, send, UMA receive) and values (suffixes, magic proofs)
 *   webhooks         a webhook endpoint the implementation can reach (the kit's receiver)
 *   second-platform  an API token of another platform of the same deployment
 *   slow             waits up to a minute for a delayed sandbox outcome (skipped with --skip-slow)
 *   minutes          waits minutes for a sandbox outcome (run only with --wait-minutes)
 */
export type Need = 'state' | 'sandbox' | 'webhooks' | 'second-platform' | 'slow' | 'minutes';

export interface Check {
  /** Stable id, `<area>.<operationId or subject>.<what>`. */
  id: string;
  /** The operations it is about (operationIds). */
  operations: string[];
  /** The status it is about (a documented status), when it is about one. */
  status?: number;
  /** The rule it checks and where it is written (spec: an operation's page, a schema; a guide). */
  rule: string;
  /** Areas, for --only and --skip. */
  tags: string[];
  needs: Need[];
  /** Bound on the whole check (default 60 s). */
  timeoutMs?: number;
  run(t: World): Promise<void>;
}
