// The Embedded Wallet signed retry: an action the wallet's owner must sign first answers 202 with
// a SignedRetryChallenge; the identical request is sent again with the signature of
// `payloadToSign` and the challenge's `requestId`. `send` builds the request once, with or without
// those headers, so the retry cannot differ from the first call.
import type { components } from '../generated/openapi.js';

export type SignedRetryChallenge = components['schemas']['SignedRetryChallenge'];

/** The headers of the signed retry, as the operations name them in `params.header`. */
export interface SignatureHeaders {
  'Service-Wallet-Signature': string;
  'Request-Id': string;
}

/** Signs `challenge.payloadToSign` byte for byte with the key of an active session of the wallet. */
export type WalletSigner = (challenge: SignedRetryChallenge) => string | Promise<string>;

type Answer = { data?: unknown; error?: unknown; response: Response };
/** The call's result without the challenge: a signed retry answers with the operation's own outcome. */
export type SignedResult<R> = R extends { data: infer D } ? Omit<R, 'data'> & { data: Exclude<D, SignedRetryChallenge> } : R;

const isChallenge = (data: unknown): data is SignedRetryChallenge =>
  typeof data === 'object' && data !== null && typeof (data as { payloadToSign?: unknown }).payloadToSign === 'string' && typeof (data as { requestId?: unknown }).requestId === 'string';

/**
 * ```ts
 * const { data, error } = await withSignedRetry(
 *   (header) => api.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId }, header }, body }),
 *   (challenge) => sessionKey.sign(challenge.payloadToSign),
 * );
 * ```
 * A call that needs no signature (any answer but a 202 challenge) is returned as it is.
 */
export async function withSignedRetry<R extends Answer>(send: (header?: SignatureHeaders) => Promise<R>, signer: WalletSigner): Promise<SignedResult<R>> {
  const first = await send();
  if (first.response.status !== 202 || !isChallenge(first.data)) return first as SignedResult<R>;
  const challenge = first.data;
  const retried = await send({ 'Service-Wallet-Signature': await signer(challenge), 'Request-Id': challenge.requestId });
  // One signature authorizes one request: a second challenge means the retry was not the same request.
  if (retried.response.status === 202 && isChallenge(retried.data)) throw new Error(`signed retry of ${challenge.requestId} was answered with another challenge`);
  return retried as SignedResult<R>;
}
