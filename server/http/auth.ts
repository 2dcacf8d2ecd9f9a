// Authentication (express-openapi-validator's security stage calls these handlers) and
// authorization (the token permission each operation names in `x-permission`). Which credentials
// are valid is for the areas that own them (tokens/, agents/): the wiring (app.ts) hands their
// lookups over, so http/ imports no area.
import type { Request } from 'express';
import type { Kysely } from 'kysely';
import type { CredentialCache, Runtime, ServiceContext } from '../context/context.ts';
import type { Database } from '../db/schema.ts';
import { collectingContext } from '../context/unit-of-work.ts';
import { ApiError, forbidden, internalError, unauthorized } from '../shared/errors.ts';
import type { AgentPermission, Permission, Principal } from '../shared/principal.ts';
import { refuseUnparsableBody } from './json-body.ts';

/** The credential lookups of the two security schemes. */
export interface Authenticators {
  /** HTTP Basic: an API token's clientId and secret, sent from `address`, if this process verified them recently. */
  basicCached(credentials: CredentialCache, clientId: string, secret: string, address: string): Principal | undefined;
  /** HTTP Basic, checked in the database; throws an ApiError when it refuses them. */
  basic(ctx: ServiceContext, clientId: string, secret: string, address: string): Promise<Principal>;
  /** Bearer: an agent's access token; undefined when it is unknown or revoked. */
  bearer(ctx: ServiceContext, token: string): Promise<Principal | undefined>;
}

// Kept on the request itself: a WeakMap entry per request is more work for the garbage collector.
const PRINCIPAL = Symbol('principal');
type WithPrincipal = Request & { [PRINCIPAL]?: Principal };
export const principalOf = (req: Request): Principal | undefined => (req as WithPrincipal)[PRINCIPAL];

/**
 * The validator turns a failed security handler into its own 401 (or a 500 for other statuses),
 * losing our reason and headers (Retry-After); the error handler answers with this one instead.
 */
const authErrors = new WeakMap<Request, ApiError>();
export const recordedAuthError = (req: Request): ApiError | undefined => authErrors.get(req);

function deny(req: Request, error: ApiError): never {
  authErrors.set(req, error);
  throw Object.assign(new Error(error.extra?.reason ?? error.message), { status: error.status });
}

/** `Basic <base64(clientId:secret)>`; the scheme name is case-insensitive (RFC 7617). */
function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon <= 0 ? undefined : { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function securityHandlers(runtime: Runtime, db: Kysely<Database>, authenticate: Authenticators) {
  // Outside any transaction: a failed attempt is counted whatever happens to the request.
  const verified = (clientId: string, secret: string, address: string) => authenticate.basic(collectingContext(runtime, db).ctx, clientId, secret, address);
  return {
    basicAuth: async (req: Request): Promise<boolean> => {
      const credentials = basicCredentials(req.headers.authorization);
      if (credentials === undefined) deny(req, unauthorized('Missing Basic credentials'));
      const address = req.ip ?? '';
      // Most requests come with credentials verified recently: answered without a promise of its own.
      const principal =
        authenticate.basicCached(runtime.credentials, credentials.clientId, credentials.secret, address) ??
        (await verified(credentials.clientId, credentials.secret, address).catch((err: unknown) => {
          if (err instanceof ApiError) deny(req, err);
          // The database failing is not the caller's fault: a 500, not a 401.
          runtime.log.error({ err }, 'authentication failed on our side');
          deny(req, internalError());
        }));
      return permitted(req, principal);
    },
    bearerAuth: async (req: Request): Promise<boolean> => {
      const token = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token === undefined) deny(req, unauthorized('Missing Bearer access token', 'UNAUTHORIZED', 'Bearer'));
      let principal: Principal | undefined;
      try {
        principal = await authenticate.bearer(collectingContext(runtime, db).ctx, token);
      } catch (err) {
        runtime.log.error({ err }, 'agent authentication failed on our side');
        deny(req, internalError());
      }
      if (principal === undefined) deny(req, unauthorized('Invalid or revoked access token', 'UNAUTHORIZED', 'Bearer'));
      return permitted(req, principal);
    },
  };
}

/**
 * Authorizes in the security stage, before the request is validated: a caller without the
 * permission learns nothing about what the operation would accept (403 before any 400, a body
 * that is not JSON included).
 */
function permitted(req: Request, principal: Principal): true {
  (req as WithPrincipal)[PRINCIPAL] = principal;
  // The validator matched the operation before its security stage, so it is always there.
  const operation = (req as Request & { openapi?: { schema?: Parameters<typeof authorize>[1] } }).openapi?.schema;
  try {
    if (operation === undefined) throw new Error('security stage without a matched operation');
    authorize(principal, operation);
    refuseUnparsableBody(req);
  } catch (err) {
    if (err instanceof ApiError) deny(req, err);
    throw err;
  }
  return true;
}

export function authorize(principal: Principal | undefined, operation: { 'x-permission'?: string; 'x-agent-permission'?: string; operationId: string }): void {
  if (principal?.kind === 'agent') {
    if (principal.isPaused) throw forbidden('AGENT_PAUSED', 'The platform has paused this agent.');
    const agentNeeds = operation['x-agent-permission'] as AgentPermission | 'ANY' | undefined;
    if (agentNeeds !== undefined && agentNeeds !== 'ANY' && !principal.permissions.includes(agentNeeds)) {
      throw forbidden('AGENT_PERMISSION_DENIED', `This agent's policy does not grant ${agentNeeds}, which ${operation.operationId} needs.`);
    }
    return;
  }
  const needed = operation['x-permission'] as Permission | undefined;
  if (principal?.kind !== 'token' || needed === undefined) return;
  if (!principal.permissions.includes(needed)) {
    throw forbidden('FORBIDDEN', `This API token does not have the ${needed} permission, which ${operation.operationId} needs.`);
  }
}
