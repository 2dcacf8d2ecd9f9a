// Agents as the platform manages them, and the redemption of a device code by the agent itself.
import type { AreaHandlers } from '../http/handler-types.ts';
import { createAgent, deleteAgent, getAgent, issueDeviceCode, listAgents, redeemDeviceCode, updateAgent, updateAgentPolicy } from './agents.service.ts';

export const agentHandlers: AreaHandlers<
  'createAgent' | 'listAgents' | 'getAgent' | 'updateAgent' | 'deleteAgent' | 'updateAgentPolicy' | 'createAgentDeviceCode' | 'redeemAgentDeviceCode'
> = {
  createAgent: async (req, ctx) => ({ status: 201, body: await createAgent(ctx, req.body) }),
  listAgents: async (req, ctx) => ({ status: 200, body: await listAgents(ctx, req.query) }),
  getAgent: async (req, ctx) => ({ status: 200, body: await getAgent(ctx, req.path.agentId) }),
  updateAgent: async (req, ctx) => ({ status: 200, body: await updateAgent(ctx, req.path.agentId, req.body) }),
  deleteAgent: async (req, ctx) => {
    await deleteAgent(ctx, req.path.agentId);
    return { status: 204, body: undefined };
  },
  updateAgentPolicy: async (req, ctx) => ({ status: 200, body: await updateAgentPolicy(ctx, req.path.agentId, req.body) }),
  createAgentDeviceCode: async (req, ctx) => ({ status: 201, body: await issueDeviceCode(ctx, req.path.agentId) }),
  redeemAgentDeviceCode: async (req, ctx) => ({ status: 200, body: await redeemDeviceCode(ctx, req.path.code) }),
};
