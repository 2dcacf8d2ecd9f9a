// Internal accounts: list the customers' and the platform's, get one. Changing or exporting an
// Embedded Wallet, which its owner signs, is wallet-auth's (wallet-auth.handlers.ts).
import type { AreaHandlers } from '../context/handler-types.ts';
import { getInternalAccount, listCustomerInternalAccounts, listPlatformInternalAccounts } from './internal-accounts.service.ts';

export const internalAccountHandlers: AreaHandlers<'listCustomerInternalAccounts' | 'listPlatformInternalAccounts' | 'getInternalAccount'> = {
  listCustomerInternalAccounts: async (req, ctx) => ({ status: 200, body: await listCustomerInternalAccounts(ctx, req.query) }),
  listPlatformInternalAccounts: async (req, ctx) => ({ status: 200, body: await listPlatformInternalAccounts(ctx, req.query) }),
  getInternalAccount: async (req, ctx) => ({ status: 200, body: await getInternalAccount(ctx, req.path.accountId) }),
};
