// Internal accounts: list the customers' and the platform's, get one. Update and export of
// Embedded Wallets need wallet sessions and come with that issue.
import { notImplemented, type AreaHandlers } from '../http/handler-types.ts';
import { getInternalAccount, listCustomerInternalAccounts, listPlatformInternalAccounts } from './internal-accounts.service.ts';

export const internalAccountHandlers: AreaHandlers<
  'listCustomerInternalAccounts' | 'listPlatformInternalAccounts' | 'getInternalAccount' | 'updateInternalAccount' | 'exportInternalAccount'
> = {
  listCustomerInternalAccounts: async (req, ctx) => ({ status: 200, body: await listCustomerInternalAccounts(ctx, req.query) }),
  listPlatformInternalAccounts: async (req, ctx) => ({ status: 200, body: await listPlatformInternalAccounts(ctx, req.query) }),
  getInternalAccount: async (req, ctx) => ({ status: 200, body: await getInternalAccount(ctx, req.path.accountId) }),
  updateInternalAccount: notImplemented,
  exportInternalAccount: notImplemented,
};
