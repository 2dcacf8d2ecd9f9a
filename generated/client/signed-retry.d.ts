import type { components } from '../openapi.js';
export type SignedRetryChallenge = components['schemas']['SignedRetryChallenge'];
/** The headers of the signed retry, as the operations name them in `params.header`. */
export interface SignatureHeaders {
    'Service-Wallet-Signature': string;
    'Request-Id': string;
}
/** Signs `challenge.payloadToSign` byte for byte with the key of an active session of the wallet. */
export type WalletSigner = (challenge: SignedRetryChallenge) => string | Promise<string>;
type Answer = {
    data?: unknown;
    error?: unknown;
    response: Response;
};
/** The call's result without the challenge: a signed retry answers with the operation's own outcome. */
export type SignedResult<R> = R extends {
    data: infer D;
} ? Omit<R, 'data'> & {
    data: Exclude<D, SignedRetryChallenge>;
} : R;
/**
 * ```ts
 * const { data, error } = await withSignedRetry(
 *   (header) => api.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId }, header }, body }),
 *   (challenge) => sessionKey.sign(challenge.payloadToSign),
 * );
 * ```
 * A call that needs no signature (any answer but a 202 challenge) is returned as it is.
 */
export declare function withSignedRetry<R extends Answer>(send: (header?: SignatureHeaders) => Promise<R>, signer: WalletSigner): Promise<SignedResult<R>>;
export {};
