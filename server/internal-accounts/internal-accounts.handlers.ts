// Internal accounts: list the customers' and the platform's, get one; change or export an
// Embedded Wallet with its owner's signature.
import type { AreaHandlers } from '../http/handler-types.ts';
import { answerSigned } from '../wallet-auth/signed-answer.ts';
import { signatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { exportEmbeddedWallet, getInternalAccount, listCustomerInternalAccounts, listPlatformInternalAccounts, updateEmbeddedWallet } from './internal-accounts.service.ts';

export const internalAccountHandlers: AreaHandlers<
  'listCustomerInternalAccounts' | 'listPlatformInternalAccounts' | 'getInternalAccount' | 'updateInternalAccount' | 'exportInternalAccount'
> = {
  listCustomerInternalAccounts: async (req, ctx) => ({ status: 200, body: await listCustomerInternalAccounts(ctx, req.query) }),
  listPlatformInternalAccounts: async (req, ctx) => ({ status: 200, body: await listPlatformInternalAccounts(ctx, req.query) }),
  getInternalAccount: async (req, ctx) => ({ status: 200, body: await getInternalAccount(ctx, req.path.accountId) }),
  updateInternalAccount: async (req, ctx) => answerSigned(200, await updateEmbeddedWallet(ctx, req.path.accountId, req.body, signatureHeaders(req.headers))),
  exportInternalAccount: async (req, ctx) => answerSigned(200, await exportEmbeddedWallet(ctx, req.path.accountId, req.body, signatureHeaders(req.headers))),
};
