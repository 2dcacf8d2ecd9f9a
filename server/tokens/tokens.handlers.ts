// API tokens: create (the only response with the secret), list, get, delete.
import type { AreaHandlers } from '../context/handler-types.ts';
import { createToken, deleteToken, getToken, listTokens } from './tokens.service.ts';

export const tokenHandlers: AreaHandlers<'createToken' | 'listTokens' | 'getToken' | 'deleteToken'> = {
  createToken: async (req, ctx) => ({ status: 201, body: await createToken(ctx, req.body) }),
  listTokens: async (req, ctx) => ({ status: 200, body: await listTokens(ctx, req.query) }),
  getToken: async (req, ctx) => ({ status: 200, body: await getToken(ctx, req.path.tokenId) }),
  deleteToken: async (req, ctx) => {
    await deleteToken(ctx, req.path.tokenId);
    return { status: 204, body: undefined };
  },
};
