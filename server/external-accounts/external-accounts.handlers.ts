// External accounts of customers and of the platform: register, list, get, delete.
import type { AreaHandlers } from '../context/handler-types.ts';
import { deleteExternalAccount, getExternalAccount, listExternalAccounts, registerExternalAccount } from './external-accounts.service.ts';

export const externalAccountHandlers: AreaHandlers<
  | 'createCustomerExternalAccount'
  | 'listCustomerExternalAccounts'
  | 'getCustomerExternalAccount'
  | 'deleteCustomerExternalAccount'
  | 'createPlatformExternalAccount'
  | 'listPlatformExternalAccounts'
  | 'getPlatformExternalAccount'
  | 'deletePlatformExternalAccount'
> = {
  createCustomerExternalAccount: async (req, ctx) => ({ status: 201, body: await registerExternalAccount(ctx, req.body) }),
  listCustomerExternalAccounts: async (req, ctx) => ({ status: 200, body: await listExternalAccounts(ctx, 'customer', req.query) }),
  getCustomerExternalAccount: async (req, ctx) => ({ status: 200, body: await getExternalAccount(ctx, 'customer', req.path.externalAccountId) }),
  deleteCustomerExternalAccount: async (req, ctx) => {
    await deleteExternalAccount(ctx, 'customer', req.path.externalAccountId);
    return { status: 204, body: undefined };
  },
  createPlatformExternalAccount: async (req, ctx) => {
    const { currency, platformAccountId, accountInfo } = req.body;
    return { status: 201, body: await registerExternalAccount(ctx, { currency, platformAccountId, accountInfo }) };
  },
  listPlatformExternalAccounts: async (req, ctx) => ({ status: 200, body: await listExternalAccounts(ctx, 'platform', req.query) }),
  getPlatformExternalAccount: async (req, ctx) => ({ status: 200, body: await getExternalAccount(ctx, 'platform', req.path.externalAccountId) }),
  deletePlatformExternalAccount: async (req, ctx) => {
    await deleteExternalAccount(ctx, 'platform', req.path.externalAccountId);
    return { status: 204, body: undefined };
  },
};
