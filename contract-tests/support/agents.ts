// An agent of the suite's platform, connected: created for a customer with a policy, its device
// code redeemed for the bearer token, with a contract-checked client that sends only that token.
import type { components } from '../../generated/openapi.js';
import type { PaymentsClient } from '../../client/index.ts';
import { api, client, raw } from './api.ts';
import { newCustomerId } from './factories.ts';

type Policy = components['schemas']['AgentPolicy'];

export const ALL_AGENT_PERMISSIONS: Policy['permissions'] = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];

export interface ConnectedAgent {
  agentId: string;
  customerId: string;
  accessToken: string;
  via: PaymentsClient;
}

export async function connectAgent(policy: Partial<Policy> = {}, customerId?: string): Promise<ConnectedAgent> {
  const owner = customerId ?? (await newCustomerId());
  const full: Policy = { permissions: ALL_AGENT_PERMISSIONS, defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 }, ...policy };
  const { data, response } = await api.POST('/agents', { body: { name: 'Suite agent', customerId: owner, policy: full } });
  if (data === undefined) throw new Error(`POST /agents: ${response.status}`);
  const redeemed = await raw('POST', `/agents/device-codes/${data.deviceCode.code}/redeem`, { auth: false });
  if (redeemed.status !== 200) throw new Error(`redeem: ${redeemed.status}`);
  const { accessToken } = (await redeemed.json()) as { accessToken: string };
  return { agentId: data.agent.id, customerId: owner, accessToken, via: client({ accessToken }) };
}
