import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { AgentRow, DeviceCodeRow } from './agents.repository.ts';

type Schemas = components['schemas'];

export const toAgent = (row: AgentRow, usage: Schemas['AgentUsage']): Schemas['Agent'] => ({
  id: row.id,
  name: row.name,
  customerId: row.customer_id,
  isPaused: row.is_paused,
  isConnected: row.connected_at !== null,
  policy: row.policy,
  usage,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const toDeviceCode = (code: string, row: DeviceCodeRow): Schemas['AgentDeviceCode'] => ({
  code,
  agentId: row.agent_id,
  expiresAt: iso(row.expires_at),
  redeemed: row.redeemed_at !== null,
});
