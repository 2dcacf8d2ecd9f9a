// Authentication (express-openapi-validator security handlers) and authorization (the token
// permission each operation names in `x-permission`).
import type { Request } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DUMMY_HASH, secretMatches } from '../tokens/secrets.ts';
import { findLiveTokenByClientId } from '../tokens/tokens.repository.ts';
import { forbidden } from './errors.ts';
import type { Permission, Principal } from './operations.ts';

const principals = new WeakMap<Request, Principal>();
export const principalOf = (req: Request): Principal | undefined => principals.get(req);

/** What express-openapi-validator turns into a 401; the message becomes the error's `reason`. */
const denied = (message: string) => Object.assign(new Error(message), { status: 401 });

function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon <= 0 ? undefined : { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function securityHandlers(db: Kysely<Database>) {
  return {
    basicAuth: async (req: Request): Promise<boolean> => {
      const credentials = basicCredentials(req.headers.authorization);
      if (credentials === undefined) throw denied('Missing Basic credentials');
      const token = await findLiveTokenByClientId(db, credentials.clientId);
      const matches = secretMatches(credentials.secret, token?.secret_hash ?? DUMMY_HASH);
      if (token === undefined || !matches) throw denied('Invalid credentials');
      principals.set(req, {
        kind: 'token',
        credentialId: token.id,
        platformId: token.platform_id,
        permissions: token.permissions as Permission[],
      });
      return true;
    },
    // Agents and their access tokens arrive with the agents issue; until then no bearer token is valid.
    bearerAuth: async (): Promise<boolean> => {
      throw denied('Invalid or revoked access token');
    },
  };
}

export function authorize(principal: Principal | undefined, operation: { 'x-permission'?: string; operationId: string }): void {
  const needed = operation['x-permission'];
  if (principal?.kind !== 'token' || needed === undefined) return;
  if (!principal.permissions.includes(needed as Permission)) {
    throw forbidden('FORBIDDEN', `This API token does not have the ${needed} permission, which ${operation.operationId} needs.`);
  }
}
