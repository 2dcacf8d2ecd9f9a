// Nobody gives more than they hold: an operation that gives power (a new API token, an agent's
// policy, a device code that connects an agent, resuming a paused agent) needs, besides its own
// permission, every token permission that power amounts to. Spec: the operations' `x-grants`, the
// Authentication guide, AgentPolicy's `x-token-permissions` (which AGENT_POLICY_GRANTS restates,
// checked by contract-tests/static/grants.test.ts).
import type { components } from '../../generated/openapi.js';
import { forbidden } from './errors.ts';
import type { AgentPermission, Permission, Principal } from './principal.ts';

/** What an agent's policy gives, in token permissions: every agent reads; each permission adds its own. */
export const AGENT_POLICY_GRANTS: { everyAgent: readonly Permission[]; permissions: Record<AgentPermission, readonly Permission[]> } = {
  everyAgent: ['VIEW'],
  permissions: {
    VIEW_TRANSACTIONS: ['VIEW'],
    CREATE_TRANSFERS: ['TRANSACT'],
    CREATE_QUOTES: ['TRANSACT'],
    EXECUTE_QUOTES: ['TRANSACT'],
    MANAGE_EXTERNAL_ACCOUNTS: ['MANAGE'],
  },
};

const ORDER: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

/** The token permissions an agent with this policy can use. */
export function policyGrants(policy: Pick<components['schemas']['AgentPolicy'], 'permissions'>): Permission[] {
  const granted = new Set([...AGENT_POLICY_GRANTS.everyAgent, ...policy.permissions.flatMap((p) => AGENT_POLICY_GRANTS.permissions[p])]);
  return ORDER.filter((p) => granted.has(p));
}

/**
 * The rule: 403 FORBIDDEN, naming what is missing, unless the caller is an API token holding every
 * permission in `granted`. `what` says what would have been given ("the policy of agent X").
 */
export function requireHeldGrants(principal: Principal, granted: readonly Permission[], what: string): void {
  const held = principal.kind === 'token' ? principal.permissions : [];
  const missing = ORDER.filter((p) => granted.includes(p) && !held.includes(p));
  if (missing.length > 0) {
    throw forbidden('FORBIDDEN', `This API token does not hold ${missing.join(', ')}, which ${what} gives, so it cannot give ${missing.length === 1 ? 'it' : 'them'}.`);
  }
}
