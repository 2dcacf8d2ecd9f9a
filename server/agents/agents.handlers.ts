// Agents as the platform manages them (and decides their actions), and the redemption of a device
// code by the agent itself.
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { approveAgentAction, getAgentAction, listAgentActions, rejectAgentAction, rejectPendingActionsOfDeletedAgent } from './agent-actions.service.ts';
import { createAgent, deleteAgent, getAgent, issueDeviceCode, listAgents, redeemWithinLimit, updateAgent, updateAgentPolicy } from './agents.service.ts';

export const agentHandlers: AreaHandlers<
  | 'createAgent'
  | 'listAgents'
  | 'getAgent'
  | 'updateAgent'
  | 'deleteAgent'
  | 'updateAgentPolicy'
  | 'createAgentDeviceCode'
  | 'redeemAgentDeviceCode'
  | 'listAgentActions'
  | 'getAgentAction'
  | 'approveAgentAction'
  | 'rejectAgentAction'
> = {
  createAgent: async (req, ctx) => ({ status: 201, body: await createAgent(ctx, req.body) }),
  listAgents: async (req, ctx) => ({ status: 200, body: await listAgents(ctx, req.query) }),
  getAgent: async (req, ctx) => ({ status: 200, body: await getAgent(ctx, req.path.agentId) }),
  updateAgent: async (req, ctx) => ({ status: 200, body: await updateAgent(ctx, req.path.agentId, req.body) }),
  deleteAgent: async (req, ctx) => {
    // The agent first: its row lock waits for submissions under way, so none is left waiting after.
    await deleteAgent(ctx, req.path.agentId);
    await rejectPendingActionsOfDeletedAgent(ctx, req.path.agentId);
    return { status: 204, body: undefined };
  },
  updateAgentPolicy: async (req, ctx) => ({ status: 200, body: await updateAgentPolicy(ctx, req.path.agentId, req.body) }),
  createAgentDeviceCode: async (req, ctx) => ({ status: 201, body: await issueDeviceCode(ctx, req.path.agentId) }),
  // Its own transaction: an unknown code is counted against the address although the request fails.
  redeemAgentDeviceCode: withoutTransaction(async (req, ctx) => ({ status: 200, body: await redeemWithinLimit(ctx, req.source, req.path.code) })),
  listAgentActions: async (req, ctx) => ({ status: 200, body: await listAgentActions(ctx, req.path.agentId, req.query) }),
  getAgentAction: async (req, ctx) => ({ status: 200, body: await getAgentAction(ctx, req.path.agentId, req.path.actionId) }),
  approveAgentAction: async (req, ctx) => ({ status: 200, body: await approveAgentAction(ctx, req.path.agentId, req.path.actionId) }),
  rejectAgentAction: async (req, ctx) => ({ status: 200, body: await rejectAgentAction(ctx, req.path.agentId, req.path.actionId, req.body?.reason) }),
};
