// The /agents/me operations, with the agent's bearer token: reads of its customer's things, its
// quotes, and the actions it submits.
import type { AreaHandlers } from '../context/handler-types.ts';
import { signatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { getOwnAction, listOwnActions } from './agent-actions.service.ts';
import { submitQuoteExecution, submitTransfer } from './agent-submissions.service.ts';
import {
  createAgentQuote,
  getAgentQuote,
  getAgentTransaction,
  getCurrentAgent,
  listAgentExternalAccounts,
  listAgentInternalAccounts,
  listAgentTransactions,
  registerAgentExternalAccount,
} from './agent-operations.service.ts';

export const agentOperationHandlers: AreaHandlers<
  | 'getCurrentAgent'
  | 'listCurrentAgentInternalAccounts'
  | 'listCurrentAgentExternalAccounts'
  | 'createCurrentAgentExternalAccount'
  | 'listCurrentAgentTransactions'
  | 'getCurrentAgentTransaction'
  | 'createCurrentAgentQuote'
  | 'getCurrentAgentQuote'
  | 'executeCurrentAgentQuote'
  | 'createCurrentAgentTransferOut'
  | 'createCurrentAgentTransferIn'
  | 'listCurrentAgentActions'
  | 'getCurrentAgentAction'
> = {
  getCurrentAgent: async (_req, ctx) => ({ status: 200, body: await getCurrentAgent(ctx) }),
  listCurrentAgentInternalAccounts: async (req, ctx) => ({ status: 200, body: await listAgentInternalAccounts(ctx, req.query) }),
  listCurrentAgentExternalAccounts: async (req, ctx) => ({ status: 200, body: await listAgentExternalAccounts(ctx, req.query) }),
  createCurrentAgentExternalAccount: async (req, ctx) => ({ status: 201, body: await registerAgentExternalAccount(ctx, req.body) }),
  listCurrentAgentTransactions: async (req, ctx) => ({ status: 200, body: await listAgentTransactions(ctx, req.query) }),
  getCurrentAgentTransaction: async (req, ctx) => ({ status: 200, body: await getAgentTransaction(ctx, req.path.transactionId) }),
  createCurrentAgentQuote: async (req, ctx) => ({ status: 201, body: await createAgentQuote(ctx, req.body, (quoteId) => submitQuoteExecution(ctx, quoteId, signatureHeaders({}))) }),
  getCurrentAgentQuote: async (req, ctx) => ({ status: 200, body: await getAgentQuote(ctx, req.path.quoteId) }),
  executeCurrentAgentQuote: async (req, ctx) => ({ status: 200, body: await submitQuoteExecution(ctx, req.path.quoteId, signatureHeaders(req.headers)) }),
  createCurrentAgentTransferOut: async (req, ctx) => ({ status: 201, body: await submitTransfer(ctx, 'TRANSFER_OUT', req.body) }),
  createCurrentAgentTransferIn: async (req, ctx) => ({ status: 201, body: await submitTransfer(ctx, 'TRANSFER_IN', req.body) }),
  listCurrentAgentActions: async (req, ctx) => ({ status: 200, body: await listOwnActions(ctx, req.query) }),
  getCurrentAgentAction: async (req, ctx) => ({ status: 200, body: await getOwnAction(ctx, req.path.actionId) }),
};
