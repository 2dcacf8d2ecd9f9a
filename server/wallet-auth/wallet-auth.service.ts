// Embedded Wallet auth, its credentials: add (the first at once, any further one signed by a session of
// the wallet), list, challenge and revoke (signed by a session of another credential; a wallet
// keeps at least one). One live credential per type and wallet. Spec: the paths under /auth/credentials.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { canonicalAccountId, requireEmbeddedWallet } from '../internal-accounts/internal-accounts.service.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import type { Db } from '../db/database.ts';
import { addMs, iso, realTimeOf } from '../shared/clock.ts';
import { badRequest, invalidField, notFound, proofRejected, tooManyRequests } from '../shared/errors.ts';
import { newId, newOpaqueId } from '../shared/ids.ts';
import { checkSignedRetryFirst, randomChallenge, requireWalletSignature, SIGNED_RETRY_WINDOW_MS, type SignatureHeaders, type Signed } from './signed-retry.service.ts';
import { toAuthMethod, toPasskeyChallenge } from './wallet-auth.mapper.ts';
import {
  claimChallengeSlot,
  findLiveCredential,
  insertCredential,
  insertEmail,
  insertWalletRequest,
  listEmails,
  listLiveCredentials,
  revokeSessionsOf,
  updateCredential,
  type CredentialRow,
} from './wallet-auth.repository.ts';

type Schemas = components['schemas'];
type CreateRequest = Schemas['AuthCredentialCreateRequest'];

/** One challenge per credential in this window (a new one-time code e-mail, or a passkey challenge). */
export const CHALLENGE_INTERVAL_MS = 30_000;

const ALREADY_EXISTS = {
  EMAIL_OTP: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  PASSKEY: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
  OAUTH: 'OAUTH_CREDENTIAL_ALREADY_EXISTS',
} as const;

const alreadyExists = (wallet: InternalAccountRow, type: CreateRequest['type']) =>
  badRequest(ALREADY_EXISTS[type], `Embedded Wallet ${wallet.id} already has a ${type} credential; revoke it before adding another.`);

export const credentialNotFound = () => notFound('CREDENTIAL_NOT_FOUND', 'No such credential.');

export async function requireLiveCredential(ctx: PlatformContext, credentialId: string): Promise<CredentialRow> {
  const row = await findLiveCredential(ctx.db, ctx.platformId, credentialId);
  if (row === undefined) throw credentialNotFound();
  return row;
}

/** The fields of the new credential that its proof establishes, checked as of `at` (the first call). */
async function provenFields(ctx: PlatformContext, body: CreateRequest, at: Date) {
  if (body.type === 'EMAIL_OTP') return { nickname: body.email };
  if (body.type === 'OAUTH') {
    // The identity provider issues its tokens on real time, whatever the platform's sandbox clock says.
    const identity = await ctx.walletProofs.oidcIdentity(body.oidcToken, realTimeOf(ctx.clock, at));
    if (!identity.ok) throw proofRejected('Invalid OIDC token', identity.problem);
    return { nickname: identity.value.email, oidc_issuer: identity.value.issuer, oidc_subject: identity.value.subject };
  }
  const registration = await ctx.walletProofs.passkeyRegistration(body.challenge, body.attestation);
  if (!registration.ok) throw proofRejected('Invalid passkey attestation', registration.problem);
  return { nickname: body.nickname, passkey_credential_id: body.attestation.credentialId, passkey_transports: body.attestation.transports ?? null };
}

/** E-mails a fresh one-time code (to the sandbox's outbox); earlier codes stop working. */
async function sendOtp(ctx: PlatformContext, credential: CredentialRow, email: string): Promise<CredentialRow> {
  const code = ctx.walletProofs.newOtp();
  const at = ctx.clock.now();
  await insertEmail(ctx.db, {
    id: newId('Email'),
    platform_id: ctx.platformId,
    credential_id: credential.id,
    to_address: email,
    subject: 'Your sign-in code',
    text: `Your code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this e-mail.`,
    created_at: at,
  });
  // A new code starts with all its attempts (sessions.service.ts MAX_OTP_ATTEMPTS).
  return updateCredential(ctx.db, credential.id, { otp_hash: ctx.keys.mac(`${credential.id}:${code}`), otp_sent_at: at, verify_failures: 0, updated_at: credential.updated_at });
}

export async function createCredential(
  ctx: PlatformContext,
  body: CreateRequest,
  headers: SignatureHeaders,
): Promise<Signed<Schemas['AuthMethod']>> {
  // The body signed names the wallet by its canonical id, whichever of its names the request used.
  const canonicalBody = { ...body, accountId: canonicalAccountId(body.accountId) };
  await checkSignedRetryFirst(ctx, { operation: 'createAuthCredential', targetId: canonicalBody.accountId, body: canonicalBody }, headers);
  const wallet = await requireEmbeddedWallet(ctx, body.accountId, { lock: true });
  const existing = await listLiveCredentials(ctx.db, wallet.id);
  if (existing.some((c) => c.type === body.type)) throw alreadyExists(wallet, body.type);
  let provenAt = ctx.clock.now();
  if (existing.length > 0) {
    // Checked before the challenge too, so the owner never signs a request bound to fail.
    if (headers.signature === undefined && headers.requestId === undefined) await provenFields(ctx, body, provenAt);
    const outcome = await requireWalletSignature(ctx, { wallet, operation: 'createAuthCredential', target: { field: 'accountId', id: wallet.id }, body: canonicalBody }, headers);
    if (!outcome.signed) return outcome;
    // The token's age counts to the first call: the signature may take the owner a while.
    provenAt = outcome.requestedAt;
  }
  const at = ctx.clock.now();
  const inserted = await insertCredential(ctx.db, {
    id: newId('AuthMethod'),
    platform_id: ctx.platformId,
    account_id: wallet.id,
    type: body.type,
    ...(await provenFields(ctx, body, provenAt)),
    created_at: at,
    updated_at: at,
  });
  if (inserted === undefined) throw alreadyExists(wallet, body.type);
  const credential = body.type === 'EMAIL_OTP' ? await sendOtp(ctx, inserted, body.email) : inserted;
  return { signed: true, result: toAuthMethod(credential) };
}

export async function listCredentials(ctx: PlatformContext, accountId: string): Promise<Schemas['AuthCredentialListResponse']> {
  const wallet = await requireEmbeddedWallet(ctx, accountId);
  return { data: (await listLiveCredentials(ctx.db, wallet.id)).map(toAuthMethod) };
}

export async function challengeCredential(ctx: PlatformContext, credentialId: string, body: Schemas['AuthCredentialChallengeRequest'] | undefined): Promise<Schemas['AuthCredentialChallengeResponse']> {
  const credential = await requireLiveCredential(ctx, credentialId);
  const clientPublicKey = body?.clientPublicKey;
  if (credential.type === 'OAUTH') throw badRequest('INVALID_INPUT', 'OAUTH credentials have no challenge step: call /verify with a fresh OIDC token.');
  if (credential.type === 'PASSKEY' && clientPublicKey === undefined) throw invalidField('/clientPublicKey', 'A passkey challenge needs the clientPublicKey the session will be sealed to.', 'required');
  if (credential.type === 'EMAIL_OTP' && clientPublicKey !== undefined) {
    throw invalidField('/clientPublicKey', 'An EMAIL_OTP challenge takes no body: send clientPublicKey to /verify with the code.');
  }
  const now = ctx.clock.now();
  if (!(await claimChallengeSlot(ctx.db, credential.id, now, addMs(now, -CHALLENGE_INTERVAL_MS)))) {
    const waitMs = (credential.last_challenge_at?.getTime() ?? now.getTime()) + CHALLENGE_INTERVAL_MS - now.getTime();
    throw tooManyRequests('RATE_LIMITED', `Credential ${credential.id} was challenged less than ${CHALLENGE_INTERVAL_MS / 1000} seconds ago.`, waitMs / 1000);
  }
  if (credential.type === 'EMAIL_OTP') return toAuthMethod(await sendOtp(ctx, credential, credential.nickname)) as Schemas['EmailOtpChallengeResult'];
  const request = await insertWalletRequest(ctx.db, {
    id: newOpaqueId(),
    platform_id: ctx.platformId,
    account_id: credential.account_id,
    operation: 'verifyAuthCredential',
    target_id: credential.id,
    body_sha256: null,
    payload: randomChallenge(),
    signer_type: 'PASSKEY',
    excluded_credential_id: null,
    client_public_key: clientPublicKey ?? null,
    expires_at: addMs(now, SIGNED_RETRY_WINDOW_MS),
    created_at: now,
  });
  return toPasskeyChallenge(request);
}

export async function revokeCredential(ctx: PlatformContext, credentialId: string, headers: SignatureHeaders): Promise<Signed<undefined>> {
  await checkSignedRetryFirst(ctx, { operation: 'revokeAuthCredential', targetId: credentialId }, headers);
  const found = await requireLiveCredential(ctx, credentialId);
  const wallet = await requireEmbeddedWallet(ctx, found.account_id, { lock: true });
  // Read again under the wallet's lock: two revocations must not leave the wallet without a credential.
  const credential = await requireLiveCredential(ctx, credentialId);
  const others = (await listLiveCredentials(ctx.db, wallet.id)).filter((c) => c.id !== credential.id);
  if (others.length === 0) throw badRequest('LAST_CREDENTIAL', `${credential.id} is the only credential of Embedded Wallet ${wallet.id}; add another before revoking it.`);
  const outcome = await requireWalletSignature(
    ctx,
    { wallet, operation: 'revokeAuthCredential', target: { field: 'credentialId', id: credential.id }, excludeCredentialId: credential.id },
    headers,
  );
  if (!outcome.signed) return outcome;
  const at = ctx.clock.now();
  await updateCredential(ctx.db, credential.id, { revoked_at: at, otp_hash: null, updated_at: at });
  await revokeSessionsOf(ctx.db, credential.id, at);
  return { signed: true, result: undefined };
}

/** The sandbox's outbox for one credential, oldest first (for the test controls). */
export async function sentWalletEmails(db: Db, credentialId: string): Promise<{ to: string; subject: string; text: string; sentAt: string }[]> {
  return (await listEmails(db, credentialId)).map((row) => ({ to: row.to_address, subject: row.subject, text: row.text, sentAt: iso(row.created_at) }));
}
