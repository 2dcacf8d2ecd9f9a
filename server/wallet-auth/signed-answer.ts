// The handlers' side of a signed retry (signed-retry.service.ts; `signatureHeaders` reads the
// request's): an action's answer is 202 with the challenge until its owner signs, then the
// operation's own status with its result. Services answer outcomes; the handler names the status.
import type { components } from '../../generated/openapi.js';

type Challenge = components['schemas']['SignedRetryChallenge'];

export function answerSigned<Status extends number, T>(
  status: Status,
  outcome: { readonly signed: false; readonly challenge: Challenge } | { readonly signed: true; readonly result: T },
): { status: 202; body: Challenge } | { status: Status; body: T } {
  return outcome.signed ? { status, body: outcome.result } : { status: 202, body: outcome.challenge };
}
