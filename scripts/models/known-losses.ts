// What the generated models cannot carry, found by the round trip and kept here with the reason.
// The check fails on any other difference, and on a loss listed here that no longer happens.
//
// JSON merge patch (PATCH /config, PATCH /agents/{agentId}/policy): `null` removes a value and an
// absent field keeps it. quicktype's models have one state for both (Python: `Optional[...] = None`,
// written only when not None; Go: a pointer with `omitempty`), so they cannot send that `null`: the
// field is left out and the current value stays. There is no quicktype option for a third state, and
// the API cannot do without it without changing what goes over the wire. A client that removes a
// webhook endpoint, an approval threshold or a spending limit sends that body as its own JSON.
import { ABSENT, type Difference } from './compare.ts';
import type { Language } from './languages.ts';

export interface KnownLoss {
  /** The example's id, as examples.ts names it. */
  example: string;
  /** JSON pointer of the lost value. */
  at: string;
  languages: Language[];
  /** The only loss listed so far: an explicit `null` the model leaves out. */
  loss: 'null left out';
}

const MERGE_PATCH = ['python', 'go'] satisfies Language[];

export const KNOWN_LOSSES: KnownLoss[] = [
  { example: 'updatePlatformConfig request application/json "removeEndpoint"', at: '/webhookEndpoint', languages: MERGE_PATCH, loss: 'null left out' },
  { example: 'updateAgentPolicy request application/json "removeThreshold"', at: '/approvalThresholds', languages: MERGE_PATCH, loss: 'null left out' },
  { example: 'updateAgentPolicy request application/json "removeThreshold"', at: '/spendingLimits/monthlyLimit', languages: MERGE_PATCH, loss: 'null left out' },
];

/** Whether `difference` is exactly the loss listed (same place, and nothing but the `null` gone). */
export const isKnownLoss = (language: Language, example: string, difference: Difference): boolean =>
  KNOWN_LOSSES.some((l) => l.languages.includes(language) && l.example === example && l.at === difference.at && difference.expected === null && difference.actual === ABSENT);
