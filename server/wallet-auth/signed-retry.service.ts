// The signed-retry pattern, one mechanism for every Embedded Wallet action: adding or revoking a
// credential, revoking a session, exporting a wallet, changing its settings, and paying out from it
// (a transfer-out, a quote's execution). The first call gets a single-use signing request (202
// SignedRetryChallenge) bound to the operation, the resource and the body; the identical request
// repeated with Service-Wallet-Signature and Request-Id before the request expires is checked
// against the wallet's active sessions. The request lives in the database and is spent, in the
// caller's transaction, by the retry that succeeds, so it authorizes exactly one effect whatever
// server the retry reaches; a retry that fails rolls back and spends nothing. A presented Request-Id
// is checked, against the whole request, before anything else the request could fail on
// (checkSignedRetryFirst), so a spent one always answers 401 REQUEST_ID_REUSED and one presented
// with a changed request 401 REQUEST_ID_INVALID.
import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { addMs } from '../shared/clock.ts';
import { badRequest, unauthorized } from '../shared/errors.ts';
import { newOpaqueId } from '../shared/ids.ts';
import { toSignedRetryChallenge } from './wallet-auth.mapper.ts';
import {
  deleteExpiredRequests,
  findTargetRequestForUpdate,
  findWalletRequestForUpdate,
  insertWalletRequest,
  listActiveSessions,
  listLiveCredentials,
  markRequestUsed,
  type WalletRequestRow,
} from './wallet-auth.repository.ts';
import { sameText } from '../shared/constant-time.ts';

type Schemas = components['schemas'];

export const SIGNED_RETRY_WINDOW_MS = 5 * 60_000;

/** An action on an Embedded Wallet that its owner must sign. */
export interface WalletAction {
  wallet: InternalAccountRow;
  operation: 'createAuthCredential' | 'revokeAuthCredential' | 'revokeAuthSession' | 'updateInternalAccount' | 'exportInternalAccount' | 'executeQuote' | 'createTransferOut';
  /** The resource acted on, named in the payload (the wallet itself needs no second name). */
  target: { field: 'accountId' | 'credentialId' | 'sessionId' | 'quoteId'; id: string };
  /** The request body; the signature covers its SHA-256 (of canonical JSON). */
  body?: unknown;
  /** Shown in the payload so the signer sees what it authorizes (an amount, where it goes). */
  shown?: Record<string, string | number>;
  /** Sessions of this credential may not sign (revoking it). */
  excludeCredentialId?: string;
}

export interface SignatureHeaders {
  signature: string | undefined;
  requestId: string | undefined;
}

export type SignatureOutcome = { readonly signed: false; readonly challenge: Schemas['SignedRetryChallenge'] } | { readonly signed: true; readonly sessionId: string; readonly requestedAt: Date };

/** What an action behind a signed retry comes to: the challenge its owner must sign first, or, once signed, its result. */
export type Signed<T> = { readonly signed: false; readonly challenge: Schemas['SignedRetryChallenge'] } | { readonly signed: true; readonly result: T };

export const signatureHeaders = (headers: Record<string, string | undefined>): SignatureHeaders => ({
  signature: headers['service-wallet-signature'],
  requestId: headers['request-id'],
});

const bodyHash = (body: unknown): string | null => (body === undefined ? null : createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex'));

/** The credential type whose session should sign: that of the newest session allowed to, else of the newest credential allowed to. */
async function signerType(ctx: PlatformContext, action: WalletAction): Promise<Schemas['AuthMethodType']> {
  const allowed = <T extends { id: string }>(rows: T[], credentialOf: (row: T) => string) => rows.filter((row) => credentialOf(row) !== action.excludeCredentialId);
  const session = allowed(await listActiveSessions(ctx.db, action.wallet.id, ctx.clock.now()), (s) => s.credential_id)[0];
  if (session !== undefined) return session.type;
  const credential = allowed(await listLiveCredentials(ctx.db, action.wallet.id), (c) => c.id)[0];
  if (credential === undefined) throw badRequest('NO_WALLET_CREDENTIAL', `Embedded Wallet ${action.wallet.id} has no credential to sign with; add one with POST /auth/credentials.`);
  return credential.type;
}

/** Opens a signing request for the action, valid until `expiresAt`. */
export async function issueSigningRequest(ctx: PlatformContext, action: WalletAction, expiresAt: Date): Promise<WalletRequestRow> {
  const id = newOpaqueId();
  const hash = bodyHash(action.body);
  // Key order is part of the payload: it is signed byte for byte.
  const payload = JSON.stringify({
    requestId: id,
    operation: action.operation,
    accountId: action.wallet.id,
    ...(action.target.field === 'accountId' ? {} : { [action.target.field]: action.target.id }),
    ...action.shown,
    ...(hash === null ? {} : { bodySha256: hash }),
  });
  return insertWalletRequest(ctx.db, {
    id,
    platform_id: ctx.platformId,
    account_id: action.wallet.id,
    operation: action.operation,
    target_id: action.target.id,
    body_sha256: hash,
    payload,
    signer_type: await signerType(ctx, action),
    excluded_credential_id: action.excludeCredentialId ?? null,
    client_public_key: null,
    expires_at: expiresAt,
    created_at: ctx.clock.now(),
  });
}

const requestIdInvalid = (reason: string) => unauthorized(reason, 'REQUEST_ID_INVALID');

/** A request that can still be answered (signed retries, passkey challenges): known, not expired, not used; 401 otherwise. */
export function usableRequest(ctx: PlatformContext, request: WalletRequestRow | undefined): WalletRequestRow {
  if (request === undefined || request.expires_at.getTime() <= ctx.clock.now().getTime()) throw requestIdInvalid('Unknown or expired Request-Id');
  if (request.used_at !== null) throw unauthorized('Request-Id already used', 'REQUEST_ID_REUSED');
  return request;
}

/**
 * What a retry presents, as far as its request alone tells before anything is looked up: the
 * operation, the resource acted on (its canonical id) and, for an operation with a body, the body
 * signed (as the action names it).
 */
export interface RetryRequest {
  operation: WalletAction['operation'];
  targetId: string;
  body?: unknown;
}

/** Whether a signing request was issued for this operation, resource and body. */
const issuedFor = (request: WalletRequestRow, retry: RetryRequest): boolean =>
  request.operation === retry.operation && request.target_id === retry.targetId && sameText(request.body_sha256 ?? '', bodyHash(retry.body) ?? '');

/** A presented Request-Id, locked: one that can still be answered, issued for this very request; 401 otherwise. */
async function checkRequestId(ctx: PlatformContext, retry: RetryRequest, requestId: string): Promise<void> {
  const request = usableRequest(ctx, await findWalletRequestForUpdate(ctx.db, ctx.platformId, requestId));
  if (!issuedFor(request, retry)) throw requestIdInvalid('Request-Id issued for another request');
}

/**
 * The first check of a signed-retry operation, before it looks anything up or judges anything: with
 * signature headers, both must be there and the Request-Id usable for this request whole (its
 * operation, resource and body), so a retry whose body changed answers 401 REQUEST_ID_INVALID,
 * never what the changed body would have failed on. Without them it passes: the operation answers
 * its 202.
 */
export async function checkSignedRetryFirst(ctx: PlatformContext, retry: RetryRequest, headers: SignatureHeaders): Promise<void> {
  if (headers.signature === undefined && headers.requestId === undefined) return;
  if (headers.requestId === undefined) throw unauthorized('Missing Request-Id', 'REQUEST_ID_MISSING');
  await checkRequestId(ctx, retry, headers.requestId);
  if (headers.signature === undefined) throw unauthorized('Missing Service-Wallet-Signature');
}

/** The first check of a signature over a request issued beforehand (a wallet quote's): its Request-Id, when presented. */
export async function checkIssuedRequestFirst(ctx: PlatformContext, retry: RetryRequest, headers: SignatureHeaders): Promise<void> {
  if (headers.requestId !== undefined) await checkRequestId(ctx, retry, headers.requestId);
}

/** Checks a signature over a locked signing request of the action and spends the request. */
async function acceptSignature(ctx: PlatformContext, action: WalletAction, found: WalletRequestRow | undefined, signature: string): Promise<SignatureOutcome> {
  const now = ctx.clock.now();
  const request = usableRequest(ctx, found);
  if (request.account_id !== action.wallet.id || !issuedFor(request, { operation: action.operation, targetId: action.target.id, body: action.body })) {
    throw requestIdInvalid('Request-Id issued for another request');
  }
  const sessions = await listActiveSessions(ctx.db, action.wallet.id, now);
  const excluded = (s: { credential_id: string }) => s.credential_id === action.excludeCredentialId;
  // Sessions allowed to sign are tried first; an excluded one that matches is a clearer error than "invalid".
  const candidates = [...sessions.filter((s) => !excluded(s)), ...sessions.filter(excluded)];
  const check = await ctx.walletProofs.signer(request.payload, signature, candidates.map((s) => ({ id: s.id, clientPublicKey: s.client_public_key })));
  if ('failure' in check) throw unauthorized(check.failure === 'INVALID_SIGNATURE' ? 'Invalid Service-Wallet-Signature' : 'No active session');
  if (candidates.some((s) => s.id === check.sessionId && excluded(s))) {
    throw badRequest('SAME_CREDENTIAL_SESSION', 'A credential is revoked with a session of another credential of the wallet: verify another credential and sign with its session.');
  }
  await markRequestUsed(ctx.db, request.id, now, check.sessionId);
  return { signed: true, sessionId: check.sessionId, requestedAt: request.created_at };
}

/**
 * The signed-retry step of an action: without signature headers a 202 challenge (nothing else may
 * change), with both the signing session once the signature holds; every failure is thrown.
 */
export async function requireWalletSignature(ctx: PlatformContext, action: WalletAction, headers: SignatureHeaders): Promise<SignatureOutcome> {
  const { signature, requestId } = headers;
  if (signature === undefined && requestId === undefined) {
    const request = await issueSigningRequest(ctx, action, addMs(ctx.clock.now(), SIGNED_RETRY_WINDOW_MS));
    return { signed: false, challenge: toSignedRetryChallenge(request) };
  }
  if (signature === undefined) throw unauthorized('Missing Service-Wallet-Signature');
  if (requestId === undefined) throw unauthorized('Missing Request-Id', 'REQUEST_ID_MISSING');
  return acceptSignature(ctx, action, await findWalletRequestForUpdate(ctx.db, ctx.platformId, requestId), signature);
}

/**
 * A signature over a request issued beforehand (a wallet quote's `payloadToSign`): `Request-Id` is
 * optional, the request is found by the action's target.
 */
export async function requireIssuedSignature(ctx: PlatformContext, action: WalletAction, headers: SignatureHeaders): Promise<SignatureOutcome> {
  if (headers.signature === undefined) throw unauthorized('Missing Service-Wallet-Signature');
  const request =
    headers.requestId === undefined
      ? await findTargetRequestForUpdate(ctx.db, ctx.platformId, action.target.id, action.operation)
      : await findWalletRequestForUpdate(ctx.db, ctx.platformId, headers.requestId);
  return acceptSignature(ctx, action, request, headers.signature);
}

/** Housekeeping: a request past its expiry authorizes nothing; an hour on it is forgotten. */
export async function forgetExpiredSigningRequests(ctx: ServiceContext): Promise<void> {
  await deleteExpiredRequests(ctx.db, addMs(ctx.clock.now(), -60 * 60_000));
}

/** A fresh random challenge, lowercase hex of 32 bytes. */
export const randomChallenge = (): string => randomBytes(32).toString('hex');
