// Nobody gives more than they hold (spec/guides/authentication.md): the server's table of what an
// agent's policy gives is the spec's `x-token-permissions`, and every operation whose request can
// carry permissions or a policy declares what it gives in `x-grants`, so the auth matrix
// (api/auth-matrix.test.ts) checks it against the rule.
import { describe, expect, it } from 'vitest';
import { AGENT_POLICY_GRANTS, policyGrants, requireHeldGrants } from '../../server/shared/grants.ts';
import type { Principal } from '../../server/shared/principal.ts';
import { operations, spec } from '../support/spec.ts';

const schemas = spec.components.schemas as Record<string, Record<string, unknown>>;

/** The component schemas a schema reaches through its `$ref`s, by name. */
function reachable(node: unknown, seen = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => reachable(n, seen));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.split('/').pop() as string;
        if (!seen.has(name)) {
          seen.add(name);
          reachable(schemas[name], seen);
        }
      } else reachable(value, seen);
    }
  }
  return seen;
}

const token = (permissions: ('VIEW' | 'TRANSACT' | 'MANAGE')[]): Principal => ({ kind: 'token', credentialId: 'Token:x', platformId: 'Platform:x', permissions });

describe('grants', () => {
  it("the server's table of what a policy gives is AgentPolicy's x-token-permissions, for every agent permission", () => {
    expect(AGENT_POLICY_GRANTS).toEqual(schemas.AgentPolicy?.['x-token-permissions']);
    expect(Object.keys(AGENT_POLICY_GRANTS.permissions).sort()).toEqual([...(schemas.AgentPermission?.enum as string[])].sort());
  });

  it('every operation whose request carries token or agent permissions declares x-grants', () => {
    const carrying = operations
      .filter((o) => {
        const names = reachable(o.operation.requestBody);
        return names.has('Permission') || names.has('AgentPermission');
      })
      .map((o) => o.operation.operationId);
    expect(carrying.length).toBeGreaterThanOrEqual(3);
    expect(carrying.filter((id) => operations.find((o) => o.operation.operationId === id)?.operation['x-grants'] === undefined)).toEqual([]);
    expect(operations.filter((o) => o.operation['x-grants'] !== undefined).map((o) => `${o.operation.operationId}: ${String(o.operation['x-grants'])}`).sort()).toEqual([
      'approveAgentAction: PAYMENT',
      'approveTransaction: PAYMENT',
      'createAgent: AGENT_POLICY',
      'createAgentDeviceCode: AGENT_POLICY',
      'createToken: REQUESTED_PERMISSIONS',
      'updateAgent: AGENT_POLICY',
      'updateAgentPolicy: AGENT_POLICY',
    ]);
  });

  it('a policy gives VIEW, plus what each of its permissions needs', () => {
    expect(policyGrants({ permissions: ['VIEW_TRANSACTIONS'] })).toEqual(['VIEW']);
    expect(policyGrants({ permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] })).toEqual(['VIEW', 'MANAGE']);
    expect(policyGrants({ permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] })).toEqual(['VIEW', 'TRANSACT']);
    expect(policyGrants({ permissions: ['CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS', 'VIEW_TRANSACTIONS'] })).toEqual(['VIEW', 'TRANSACT', 'MANAGE']);
  });

  it('requireHeldGrants refuses with 403 FORBIDDEN naming what is missing; an agent or nobody holds nothing', () => {
    expect(() => requireHeldGrants(token(['VIEW', 'TRANSACT']), ['VIEW', 'TRANSACT'], 'it')).not.toThrow();
    expect(() => requireHeldGrants(token(['MANAGE']), ['VIEW', 'TRANSACT'], 'the policy')).toThrow(expect.objectContaining({ status: 403, code: 'FORBIDDEN', message: expect.stringContaining('VIEW, TRANSACT') }));
    const agent: Principal = { kind: 'agent', credentialId: 'Agent:x', platformId: 'Platform:x', customerId: 'Customer:x', permissions: ['CREATE_TRANSFERS'], isPaused: false };
    expect(() => requireHeldGrants(agent, ['VIEW'], 'it')).toThrow(expect.objectContaining({ status: 403 }));
  });
});
