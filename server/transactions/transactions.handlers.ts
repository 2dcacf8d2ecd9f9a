// Transfers in and out, and the transactions they (and every other money movement) create. The
// platform's decision on a transaction waiting for it is the agents area's (transaction-approvals.handlers.ts).
import type { AreaHandlers } from '../context/handler-types.ts';
import { answerSigned } from '../wallet-auth/signed-answer.ts';
import { cancelTransaction, getTransaction, listTransactions } from './transactions.service.ts';
import { createTransferIn, createTransferOut } from './transfers.service.ts';
import { signatureHeaders } from '../wallet-auth/signed-retry.service.ts';

export const transactionHandlers: AreaHandlers<'createTransferIn' | 'createTransferOut' | 'listTransactions' | 'getTransaction' | 'cancelTransaction'> = {
  createTransferIn: async (req, ctx) => ({ status: 201, body: await createTransferIn(ctx, req.body) }),
  createTransferOut: async (req, ctx) => answerSigned(201, await createTransferOut(ctx, req.body, signatureHeaders(req.headers))),
  listTransactions: async (req, ctx) => ({ status: 200, body: await listTransactions(ctx, req.query) }),
  getTransaction: async (req, ctx) => ({ status: 200, body: await getTransaction(ctx, req.path.transactionId) }),
  cancelTransaction: async (req, ctx) => ({ status: 200, body: await cancelTransaction(ctx, req.path.transactionId, req.body?.reason) }),
};
