// API tokens: issuing (the secret is returned once and only its hash kept), listing, deleting,
// and authenticating HTTP Basic credentials with a limit on failed attempts per clientId and address.
import type { components } from '../../generated/openapi.js';
import type { CredentialCache, PlatformContext, RequestContext, ServiceContext, TokenPrincipal } from '../context/context.ts';
import { addMs } from '../shared/clock.ts';
import { ApiError, badRequest, notFound, unauthorized } from '../shared/errors.ts';
import { requireHeldGrants } from '../shared/grants.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import type { Permission, Principal } from '../shared/principal.ts';
import { forgetRecoveredLimits, judgeInTurn, limitKey, type FailureLimit } from '../limits/failure-limits.service.ts';
import { throttledSource } from '../shared/source-address.ts';
import { deleteExpiredFailures } from './auth-failures.repository.ts';
import { deleteLongExpiredLeases } from './cache-leases.repository.ts';
import { toToken } from './tokens.mapper.ts';
import { findLiveToken, findToken, findTokenByClientId, insertToken, listTokens as listTokenRows, softDeleteToken, type TokenFilters, type TokenRow } from './tokens.repository.ts';
import { DUMMY_HASH, hashSecret, newClientId, newClientSecret, secretMatches } from './token-secrets.ts';

type Token = components['schemas']['Token'];

/** The contract's clientId format; anything else cannot be a token and never reaches a query. */
const CLIENT_ID = /^[0-9a-f]{32}$/;

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

/** Failed authentications of one clientId from one client (shared/source-address.ts). */
export const AUTHENTICATION_LIMIT: FailureLimit = {
  name: 'basic',
  max: 10,
  periodMs: 5 * 60_000,
  refusal: { code: 'TOO_MANY_FAILED_AUTHENTICATIONS', message: 'Too many failed authentications for this clientId from this address; wait before trying again.' },
};

/**
 * The principal of Basic credentials this process verified recently, without a database round
 * trip; undefined when the database must decide (verifyBasic). A deleted token, or a clientId
 * throttled for this client, is revoked from every cache before either answers.
 */
export function cachedBasic(credentials: CredentialCache, clientId: string, secret: string, address: string): Principal | undefined {
  return CLIENT_ID.test(clientId) ? credentials.lookup(clientId, throttledSource(address), secret) : undefined;
}

/**
 * Checks Basic credentials sent from `address` in the database (when cachedBasic has none) and
 * caches them when they pass. Failures are counted per clientId (whatever was sent) and client
 * address, in the database (limits/failure-limits.service.ts): after 10, that
 * address's requests with that clientId get 429, even with the right secret, until an attempt
 * comes back (one every 30 seconds), so guessing a secret never pays; the same clientId from any
 * other address is not affected, so nobody who knows a clientId can lock its owner out. Attempts
 * on one clientId from one address are judged one at a time (judgeInTurn), so a burst of them is
 * judged no more than the limit allows. `ctx.db` must not be a transaction: a failure is recorded
 * whatever happens to the request.
 */
export async function verifyBasic(ctx: ServiceContext, clientId: string, secret: string, address: string): Promise<Principal> {
  const validId = CLIENT_ID.test(clientId);
  const source = throttledSource(address);
  const generation = ctx.credentials.generation;
  const key = limitKey(AUTHENTICATION_LIMIT, clientId, source);
  const verified = await judgeInTurn(ctx, AUTHENTICATION_LIMIT, key, {
    judge: async (turn) => {
      const token = await findLiveToken(turn.db, validId ? clientId : undefined);
      // Compared even without a token, so an unknown clientId costs the same time as a wrong secret.
      const matches = secretMatches(secret, token?.secret_hash ?? DUMMY_HASH);
      if (token === undefined || !matches) throw unauthorized('Invalid credentials');
      return token;
    },
    isFailure: (err) => err instanceof ApiError && err.status === 401,
    writesNothing: true,
    // From now on even the right secret is refused from this client, so no cache may still accept
    // it here: revoked with the failure's commit, and waited for before the 401.
    exhausted: async (turn) => {
      if (validId) turn.afterCommit(await turn.credentials.revoke(turn.db, clientId, source));
    },
  });
  const principal: TokenPrincipal = { kind: 'token', credentialId: verified.id, platformId: verified.platform_id, permissions: verified.permissions };
  ctx.credentials.remember(clientId, source, principal, verified.secret_hash, generation);
  return principal;
}

/** Housekeeping: the credential-cache leases of processes that ended without releasing theirs. */
export async function forgetDeadCacheLeases(ctx: ServiceContext): Promise<void> {
  await deleteLongExpiredLeases(ctx.db, 60 * 60 * 1000);
}

/** Housekeeping for the job runner: counts of failures that have all come back hold nothing. */
export async function forgetClosedFailureWindows(ctx: ServiceContext): Promise<void> {
  await forgetRecoveredLimits(ctx);
  // Left by processes of earlier versions (migration 0017).
  await deleteExpiredFailures(ctx.db, addMs(ctx.clock.now(), -5 * 60_000));
}
