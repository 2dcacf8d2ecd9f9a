// API tokens: issuing (the secret is returned once and only its hash kept), listing, deleting,
// and authenticating HTTP Basic credentials with a limit on failed attempts per clientId.
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, RequestContext, ServiceContext } from '../context.ts';
import { addMs } from '../shared/clock.ts';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../shared/errors.ts';
import { requireHeldGrants } from '../shared/grants.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import type { Permission, Principal } from '../shared/principal.ts';
import { deleteExpiredFailures, recordFailure } from './auth-failures.repository.ts';
import { deleteLongExpiredLeases } from './cache-leases.repository.ts';
import type { TokenPrincipal } from './credential-cache.ts';
import { toToken } from './tokens.mapper.ts';
import { findCredentialState, findToken, findTokenByClientId, insertToken, listTokens as listTokenRows, softDeleteToken, type TokenFilters, type TokenRow } from './tokens.repository.ts';
import { DUMMY_HASH, hashSecret, newClientId, newClientSecret, secretMatches } from './token-secrets.ts';

type Token = components['schemas']['Token'];

/** The contract's clientId format; anything else cannot be a token and never reaches a query. */
const CLIENT_ID = /^[0-9a-f]{32}$/;
export const FAILURE_WINDOW_MS = 5 * 60 * 1000;
export const MAX_FAILURES = 10;

export async function issueToken(
  ctx: PlatformContext,
  name: string,
  permissions: Permission[],
  credentials?: { clientId: string; clientSecret: string },
): Promise<{ row: TokenRow; clientSecret: string }> {
  const at = ctx.clock.now();
  const clientSecret = credentials?.clientSecret ?? newClientSecret();
  const row = await insertToken(ctx.db, {
    id: newId('Token'),
    platform_id: ctx.platformId,
    name,
    permissions,
    client_id: credentials?.clientId ?? newClientId(),
    secret_hash: hashSecret(clientSecret),
    created_at: at,
    updated_at: at,
  });
  return { row, clientSecret };
}

/** Where a token configured for the bootstrap stands: new, usable as configured, or not. */
export async function configuredTokenState(ctx: ServiceContext, credentials: { clientId: string; clientSecret: string }): Promise<'absent' | 'live' | 'deleted' | 'other-secret'> {
  const row = await findTokenByClientId(ctx.db, credentials.clientId);
  if (row === undefined) return 'absent';
  if (row.deleted_at !== null) return 'deleted';
  return secretMatches(credentials.clientSecret, row.secret_hash) ? 'live' : 'other-secret';
}

export async function createToken(ctx: RequestContext, input: components['schemas']['TokenCreateRequest']): Promise<Token> {
  const permissions = [...new Set(input.permissions)];
  // A MANAGE-only token must not mint a TRANSACT one.
  requireHeldGrants(ctx.principal, permissions, 'the new token');
  const { row, clientSecret } = await issueToken(ctx, input.name, permissions);
  return { ...toToken(row), clientSecret };
}

export async function listTokens(ctx: PlatformContext, query: TokenFilters & { limit?: number; cursor?: string }): Promise<Page<Token>> {
  return listPage(ctx.keys, query, (filters, page) => listTokenRows(ctx.db, ctx.platformId, filters, page), toToken);
}

export async function getToken(ctx: PlatformContext, tokenId: string): Promise<Token> {
  const row = await findToken(ctx.db, ctx.platformId, tokenId);
  if (row === undefined) throw notFound('TOKEN_NOT_FOUND', 'No such API token.');
  return toToken(row);
}

export async function deleteToken(ctx: RequestContext, tokenId: string): Promise<void> {
  if (tokenId === ctx.principal.credentialId) throw badRequest('INVALID_INPUT', 'A token cannot delete itself; use another token with MANAGE.');
  const clientId = await softDeleteToken(ctx.db, ctx.platformId, tokenId, ctx.clock.now());
  if (clientId === undefined) throw notFound('TOKEN_NOT_FOUND', 'No such API token.');
  // The 204 waits until no server process would still accept the token from its cache.
  ctx.afterCommit(await ctx.credentials.revoke(ctx.db, clientId));
}

const hashClientId = (clientId: string) => createHash('sha256').update(clientId, 'utf8').digest('base64url');

type Refusal = { code: components['schemas']['Error429']['code']; message: string };
const AUTHENTICATION_REFUSAL: Refusal = { code: 'TOO_MANY_FAILED_AUTHENTICATIONS', message: 'Too many failed authentications for this clientId; wait before trying again.' };

/**
 * 429 with `refusal` until the failure window that started at `windowStartedAt` closes (if it is
 * still open); for every limit counted in `auth_failures`, which housekeeping keeps for one window.
 */
export function refuseUntilWindowCloses(windowStartedAt: Date, at: Date, refusal: Refusal = AUTHENTICATION_REFUSAL): void {
  const closesAt = addMs(windowStartedAt, FAILURE_WINDOW_MS);
  if (closesAt > at) throw tooManyRequests(refusal.code, refusal.message, (closesAt.getTime() - at.getTime()) / 1000);
}

/**
 * Checks Basic credentials. Failures are counted per clientId (whatever was sent) in the database:
 * after MAX_FAILURES within FAILURE_WINDOW_MS every request with that clientId gets 429 until the
 * window closes, even with the right secret, so guessing a secret is never worth it.
 * `ctx.db` must not be a transaction: a failure is recorded whatever happens to the request.
 */
export async function authenticateBasic(ctx: ServiceContext, clientId: string, secret: string): Promise<Principal> {
  const validId = CLIENT_ID.test(clientId);
  // A deleted token or a clientId locked out is revoked from every cache before either answers.
  const cached = validId ? ctx.credentials.lookup(clientId, secret) : undefined;
  if (cached !== undefined) return cached;
  const generation = ctx.credentials.generation;
  const at = ctx.clock.now();
  const key = hashClientId(clientId);
  const { token, failures: window } = await findCredentialState(ctx.db, validId ? clientId : undefined, key);
  if (window !== undefined && window.failures >= MAX_FAILURES) refuseUntilWindowCloses(window.windowStartedAt, at);
  // Compared even without a token, so an unknown clientId costs the same time as a wrong secret.
  const matches = secretMatches(secret, token?.secret_hash ?? DUMMY_HASH);
  if (token === undefined || !matches) {
    // Concurrent attempts all pass the check above before any of them is recorded; the count this
    // failure got from the atomic upsert decides, so no more than MAX_FAILURES per window are
    // ever answered "wrong credentials", however many arrive at once on however many processes.
    const recorded = await recordFailure(ctx.db, key, at, FAILURE_WINDOW_MS);
    // From the limit on even the right secret is refused, so no cache may still accept it.
    if (recorded.failures >= MAX_FAILURES && validId) await (await ctx.credentials.revoke(ctx.db, clientId))();
    if (recorded.failures > MAX_FAILURES) refuseUntilWindowCloses(recorded.windowStartedAt, at);
    throw unauthorized('Invalid credentials');
  }
  const principal: TokenPrincipal = { kind: 'token', credentialId: token.id, platformId: token.platform_id, permissions: token.permissions };
  if (window === undefined || window.failures < MAX_FAILURES) ctx.credentials.remember(clientId, principal, token.secret_hash, generation);
  return principal;
}

/** Housekeeping: the credential-cache leases of processes that ended without releasing theirs. */
export async function forgetDeadCacheLeases(ctx: ServiceContext): Promise<void> {
  await deleteLongExpiredLeases(ctx.db, 60 * 60 * 1000);
}

/** Housekeeping for the job runner: closed windows are of no use. */
export async function forgetClosedFailureWindows(ctx: ServiceContext): Promise<void> {
  await deleteExpiredFailures(ctx.db, addMs(ctx.clock.now(), -FAILURE_WINDOW_MS));
}
