// API tokens: create (the only response with the secret), list, get, delete.
import type { components } from '../../generated/openapi.js';
import { badRequest, notFound } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers, Permission } from '../http/operations.ts';
import { listPage } from '../http/pagination.ts';
import { hashSecret, newClientId, newClientSecret } from './secrets.ts';
import { findToken, insertToken, listTokens, softDeleteToken, type TokenRow } from './tokens.repository.ts';

type Token = components['schemas']['Token'];

export const toToken = (row: TokenRow): Token => ({
  id: row.id,
  name: row.name,
  permissions: row.permissions as Permission[],
  clientId: row.client_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export async function createTokenRow(db: Parameters<typeof insertToken>[0], platformId: string, name: string, permissions: Permission[], credentials?: { clientId: string; clientSecret: string }) {
  const at = now();
  const clientSecret = credentials?.clientSecret ?? newClientSecret();
  const row = await insertToken(db, {
    id: newId('Token'),
    platform_id: platformId,
    name,
    permissions,
    client_id: credentials?.clientId ?? newClientId(),
    secret_hash: hashSecret(clientSecret),
    created_at: at,
    updated_at: at,
  });
  return { row, clientSecret };
}

export const tokenHandlers: AreaHandlers<'createToken' | 'listTokens' | 'getToken' | 'deleteToken'> = {
  async createToken(req, ctx) {
    const { row, clientSecret } = await createTokenRow(ctx.db, ctx.principal.platformId, req.body.name, [...new Set(req.body.permissions)]);
    return { status: 201, body: { ...toToken(row), clientSecret } };
  },

  async listTokens(req, ctx) {
    return { status: 200, body: await listPage(req.query, (filters, page) => listTokens(ctx.db, ctx.principal.platformId, filters, page), toToken) };
  },

  async getToken(req, ctx) {
    const row = await findToken(ctx.db, ctx.principal.platformId, req.path.tokenId);
    if (row === undefined) throw notFound('TOKEN_NOT_FOUND', 'No such API token.');
    return { status: 200, body: toToken(row) };
  },

  async deleteToken(req, ctx) {
    if (req.path.tokenId === ctx.principal.credentialId) {
      throw badRequest('INVALID_INPUT', 'A token cannot delete itself; use another token with MANAGE.');
    }
    if (!(await softDeleteToken(ctx.db, ctx.principal.platformId, req.path.tokenId, now()))) {
      throw notFound('TOKEN_NOT_FOUND', 'No such API token.');
    }
    return { status: 204, body: undefined };
  },
};
