// Sessions of Embedded Wallets: opened by verifying a credential (its proof, checked by the
// runtime's WalletProofs), listed while active, revoked with a signed retry (a session may sign
// its own revocation). A session lasts 15 minutes; revoking its credential ends it too.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { requireEmbeddedWallet } from '../internal-accounts/internal-accounts.service.ts';
import { addMs } from '../shared/clock.ts';
import { ApiError, invalidField, notFound, proofRejected } from '../shared/errors.ts';
import { newOpaqueId } from '../shared/ids.ts';
import { listPage } from '../shared/page.ts';
import { SANDBOX_MAGIC_VALUES } from '../simulation/embedded-wallet.ts';
import { requireLiveCredential } from './wallet-auth.service.ts';
import { checkSignedRetryFirst, requireWalletSignature, usableRequest, type SignatureHeaders, type Signed } from './signed-retry.service.ts';
import { toAuthSession, toNewAuthSession } from './wallet-auth.mapper.ts';
import {
  consumeOtp,
  findActiveSession,
  findWalletRequestForUpdate,
  insertSession,
  markRequestUsed,
  pageActiveSessions,
  takeOtpAttempt as takeOtpAttemptRow,
  revokeSession as revokeSessionRow,
  updateCredential,
  voidUsedUpOtp,
  type CredentialRow,
} from './wallet-auth.repository.ts';

type Schemas = components['schemas'];

export const SESSION_LIFETIME_MS = 15 * 60_000;
export const OTP_LIFETIME_MS = 10 * 60_000;
/**
 * Wrong codes one e-mailed code survives: the last of them voids it, and only a new code (from
 * /challenge, at most one every 30 seconds) opens a session. Six digits are guessable, so guesses
 * are limited per code; a wrong code never stops the right one of the next e-mail, so nobody who
 * sends wrong codes can lock the owner out. Passkey and OIDC proofs cannot be guessed: their
 * failures are not limited, and the right proof always opens a session.
 */
export const MAX_OTP_ATTEMPTS = 5;

/** A wrong proof. A wrong e-mailed code (`otpHash`: the code it was judged against) took one of that code's attempts before it was judged, whatever happens to the request's transaction. */
export class ProofFailure extends Error {
  readonly credentialId: string;
  readonly error: ApiError;
  readonly otpHash: string | undefined;

  constructor(credentialId: string, error: ApiError, otpHash?: string) {
    super(error.message);
    this.credentialId = credentialId;
    this.error = error;
    this.otpHash = otpHash;
  }
}

const reasonOf = (field: keyof typeof SANDBOX_MAGIC_VALUES) => SANDBOX_MAGIC_VALUES[field].failureReason;

/** The key the session is sealed to, once the proof holds. */
async function provenClientKey(ctx: PlatformContext, credential: CredentialRow, body: Schemas['AuthCredentialVerifyRequest'], requestId: string | undefined, otpAttempt: string | undefined): Promise<string> {
  const now = ctx.clock.now();
  const fail = (reason: string, message: string) => new ProofFailure(credential.id, proofRejected(reason, message));
  if (body.type === 'EMAIL_OTP') {
    const live = otpAttempt !== undefined && credential.otp_sent_at !== null && credential.otp_sent_at.getTime() + OTP_LIFETIME_MS > now.getTime();
    if (!live) throw fail(reasonOf('otp'), 'No code is pending (none was e-mailed, it was used, or wrong codes used up its attempts), or it is more than 10 minutes old: ask for a new one with /challenge.');
    // Judged against the code whose attempt was taken (a newer one then fails to be consumed).
    const pending = otpAttempt ?? '';
    if (!ctx.keys.verifyMac(`${credential.id}:${body.otp}`, pending)) {
      throw new ProofFailure(credential.id, proofRejected(reasonOf('otp'), `The code is not the last one e-mailed; after ${MAX_OTP_ATTEMPTS} wrong codes it stops working, and /challenge e-mails a new one.`), pending);
    }
    // A code opens one session, even when two verifications race.
    if (!(await consumeOtp(ctx.db, credential.id, pending))) throw fail(reasonOf('otp'), 'The code was already used.');
    return body.clientPublicKey;
  }
  if (body.type === 'OAUTH') {
    const registered = { issuer: credential.oidc_issuer ?? '', subject: credential.oidc_subject ?? '' };
    if (!(await ctx.walletProofs.oidcMatches(body.oidcToken, registered, now))) throw fail(reasonOf('oidcToken'), 'The OIDC token is not a fresh token of the registered identity.');
    return body.clientPublicKey;
  }
  if (requestId === undefined) throw invalidField('Request-Id', 'A passkey verification needs the requestId of its /challenge in the Request-Id header.', 'required');
  const found = await findWalletRequestForUpdate(ctx.db, ctx.platformId, requestId);
  // A challenge of another credential (or another kind of request) is unknown here.
  const challenge = usableRequest(ctx, found?.operation === 'verifyAuthCredential' && found.target_id === credential.id ? found : undefined);
  if (!(await ctx.walletProofs.passkeyAssertion(challenge.payload, body.assertion, credential.passkey_credential_id ?? ''))) {
    throw fail(reasonOf('assertion.signature'), 'The assertion is not a signature of the challenge by the registered passkey.');
  }
  await markRequestUsed(ctx.db, challenge.id, now, null);
  return challenge.client_public_key ?? '';
}

/** Opens a session; throws ProofFailure for a wrong proof (the caller records it outside the transaction). */
export async function verifyCredential(
  ctx: PlatformContext,
  credentialId: string,
  body: Schemas['AuthCredentialVerifyRequest'],
  requestId: string | undefined,
  otpAttempt?: string,
): Promise<Schemas['AuthSessionWithSigningKey']> {
  const credential = await requireLiveCredential(ctx, credentialId);
  if (body.type !== credential.type) throw invalidField('/type', `Credential ${credential.id} is ${credential.type}, not ${body.type}.`, 'const');
  const clientPublicKey = await provenClientKey(ctx, credential, body, requestId, otpAttempt);
  const now = ctx.clock.now();
  const session = await insertSession(ctx.db, {
    id: newOpaqueId(),
    platform_id: ctx.platformId,
    account_id: credential.account_id,
    credential_id: credential.id,
    client_public_key: clientPublicKey,
    expires_at: addMs(now, SESSION_LIFETIME_MS),
    revoked_at: null,
    created_at: now,
  });
  return toNewAuthSession(session, credential.type, ctx.walletProofs.sealSessionKey(clientPublicKey));
}

/**
 * For an e-mailed code, one of the pending code's attempts, taken before the code is judged and
 * committed at once (`ctx.db` outside the verification's transaction): however many arrive at once,
 * on however many processes, no more than MAX_OTP_ATTEMPTS are judged against a code. The code's
 * MAC, or undefined when it has none left (or none is pending): the attempt is then judged against
 * nothing.
 */
export async function takeOtpAttempt(ctx: PlatformContext, credentialId: string): Promise<string | undefined> {
  return takeOtpAttemptRow(ctx.db, ctx.platformId, credentialId, MAX_OTP_ATTEMPTS, addMs(ctx.clock.now(), -OTP_LIFETIME_MS));
}

/** A wrong e-mailed code that took its code's last attempt voids it (`ctx.db` outside the failed request's transaction). */
export async function countOtpFailure(ctx: PlatformContext, failure: ProofFailure): Promise<void> {
  if (failure.otpHash !== undefined) await voidUsedUpOtp(ctx.db, failure.credentialId, failure.otpHash, MAX_OTP_ATTEMPTS);
}

export async function listSessions(ctx: PlatformContext, query: { accountId: string; limit?: number; cursor?: string }): Promise<Schemas['AuthSessionListResponse']> {
  const wallet = await requireEmbeddedWallet(ctx, query.accountId);
  const now = ctx.clock.now();
  // The cursor is bound to the account as asked for (`InternalAccount:` or `EmbeddedWallet:`).
  return listPage(ctx.keys, query, (_filters, page) => pageActiveSessions(ctx.db, wallet.id, now, page), (row) => toAuthSession(row, row.type));
}

export async function revokeSession(ctx: PlatformContext, sessionId: string, headers: SignatureHeaders): Promise<Signed<undefined>> {
  await checkSignedRetryFirst(ctx, { operation: 'revokeAuthSession', targetId: sessionId }, headers);
  const session = await findActiveSession(ctx.db, ctx.platformId, sessionId, ctx.clock.now());
  if (session === undefined) throw notFound('SESSION_NOT_FOUND', 'No such active session.');
  const wallet = await requireEmbeddedWallet(ctx, session.account_id);
  const outcome = await requireWalletSignature(ctx, { wallet, operation: 'revokeAuthSession', target: { field: 'sessionId', id: session.id } }, headers);
  if (!outcome.signed) return outcome;
  await revokeSessionRow(ctx.db, session.id, ctx.clock.now());
  return { signed: true, result: undefined };
}
