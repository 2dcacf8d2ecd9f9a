// The /agents/me operations, with the agent's bearer token.
import type { AreaHandlers } from '../http/handler-types.ts';
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
> = {
  getCurrentAgent: async (_req, ctx) => ({ status: 200, body: await getCurrentAgent(ctx) }),
  listCurrentAgentInternalAccounts: async (req, ctx) => ({ status: 200, body: await listAgentInternalAccounts(ctx, req.query) }),
  listCurrentAgentExternalAccounts: async (req, ctx) => ({ status: 200, body: await listAgentExternalAccounts(ctx, req.query) }),
  createCurrentAgentExternalAccount: async (req, ctx) => ({ status: 201, body: await registerAgentExternalAccount(ctx, req.body) }),
  listCurrentAgentTransactions: async (req, ctx) => ({ status: 200, body: await listAgentTransactions(ctx, req.query) }),
  getCurrentAgentTransaction: async (req, ctx) => ({ status: 200, body: await getAgentTransaction(ctx, req.path.transactionId) }),
  createCurrentAgentQuote: async (req, ctx) => ({ status: 201, body: await createAgentQuote(ctx, req.body) }),
  getCurrentAgentQuote: async (req, ctx) => ({ status: 200, body: await getAgentQuote(ctx, req.path.quoteId) }),
};
