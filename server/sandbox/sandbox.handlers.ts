// Sandbox operations. Funding is here; the payment simulations arrive with the money-core and
// cross-currency issues.
import type { AreaHandlers } from '../http/handler-types.ts';
import { fundInternalAccount } from './sandbox.service.ts';

export const sandboxHandlers: AreaHandlers<'fundSandboxInternalAccount'> = {
  fundSandboxInternalAccount: async (req, ctx) => ({ status: 200, body: await fundInternalAccount(ctx, req.path.accountId, req.body.amount) }),
};
