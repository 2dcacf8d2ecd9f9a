const isChallenge = (data) => typeof data === 'object' && data !== null && typeof data.payloadToSign === 'string' && typeof data.requestId === 'string';
/**
 * ```ts
 * const { data, error } = await withSignedRetry(
 *   (header) => api.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId }, header }, body }),
 *   (challenge) => sessionKey.sign(challenge.payloadToSign),
 * );
 * ```
 * A call that needs no signature (any answer but a 202 challenge) is returned as it is.
 */
export async function withSignedRetry(send, signer) {
    const first = await send();
    if (first.response.status !== 202 || !isChallenge(first.data))
        return first;
    const challenge = first.data;
    const retried = await send({ 'Service-Wallet-Signature': await signer(challenge), 'Request-Id': challenge.requestId });
    // One signature authorizes one request: a second challenge means the retry was not the same request.
    if (retried.response.status === 202 && isChallenge(retried.data))
        throw new Error(`signed retry of ${challenge.requestId} was answered with another challenge`);
    return retried;
}
