// An agent's bearer access token: found by its SHA-256 (the token itself is never stored), valid
// while the agent exists. A paused agent is still authenticated; authorization refuses it (403).
import type { ServiceContext } from '../context/context.ts';
import type { Principal } from '../shared/principal.ts';
import { findAgentByTokenHash } from './agents.repository.ts';
import { sha256 } from './agents.service.ts';

export async function authenticateAgent(ctx: ServiceContext, token: string): Promise<Principal | undefined> {
  if (token.length < 32 || token.length > 512) return undefined;
  const agent = await findAgentByTokenHash(ctx.db, sha256(token));
  if (agent === undefined) return undefined;
  return { kind: 'agent', credentialId: agent.id, platformId: agent.platform_id, customerId: agent.customer_id, permissions: agent.policy.permissions, isPaused: agent.is_paused };
}
