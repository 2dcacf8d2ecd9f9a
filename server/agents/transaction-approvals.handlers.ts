// The platform's decision on a transaction waiting for it: the payment of an agent action, approved
// or rejected by its transaction's id (the same decision as approving or rejecting the action).
import type { AreaHandlers } from '../context/handler-types.ts';
import { approveTransaction, rejectTransaction } from './agent-actions.service.ts';

export const transactionApprovalHandlers: AreaHandlers<'approveTransaction' | 'rejectTransaction'> = {
  approveTransaction: async (req, ctx) => ({ status: 200, body: await approveTransaction(ctx, req.path.transactionId) }),
  rejectTransaction: async (req, ctx) => ({ status: 200, body: await rejectTransaction(ctx, req.path.transactionId, req.body?.reason) }),
};
