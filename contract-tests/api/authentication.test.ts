// Who may do what: a token can only hand out permissions it holds itself (to a token or to an
// agent, whose policy amounts to token permissions), and guessing a token's
// secret is cut short: after 10 failed authentications for one clientId within 5 minutes, every
// request with that clientId gets 429 with Retry-After, even with the right secret.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, describeServer, errorOf, itServer, raw, unique } from '../support/api.ts';
import { clientFor, createToken as newToken, newCustomerId, type Permission } from '../support/factories.ts';
import { basicAuth } from '../support/raw-requests.ts';

type AgentPolicy = components['schemas']['AgentPolicy'];
const basicOf = (clientId: string, clientSecret: string) => basicAuth({ clientId, clientSecret });
const tokenNames = async () => new Set((await api.GET('/tokens', { params: { query: { limit: 100 } } })).data?.data.map((t) => t.name));

describeServer('createToken grants', () => {
  itServer('403: a token cannot grant a permission it does not hold, and nothing is created', async () => {
    const manager = clientFor(await newToken(['MANAGE']));
    for (const permissions of [['TRANSACT'], ['VIEW'], ['MANAGE', 'TRANSACT']] as Permission[][]) {
      const name = `escalation ${unique()}`;
      const { response, error } = await manager.POST('/tokens', { body: { name, permissions } });
      expect(response.status, permissions.join()).toBe(403);
      expect(error).toMatchObject({ code: 'FORBIDDEN' });
      expect(error?.message).toContain(permissions.filter((p) => p !== 'MANAGE').join(', '));
      expect(await tokenNames()).not.toContain(name);
    }
  });

  itServer('201: a token grants what it holds, or less', async () => {
    const manager = clientFor(await newToken(['MANAGE', 'VIEW']));
    for (const permissions of [['VIEW'], ['MANAGE'], ['VIEW', 'MANAGE']] as Permission[][]) {
      const { response, data } = await manager.POST('/tokens', { body: { name: `grant ${unique()}`, permissions } });
      expect(response.status).toBe(201);
      expect(data?.permissions.sort()).toEqual([...permissions].sort());
    }
  });
});

describeServer('agent grants: a policy never gives more than the token that writes it holds', () => {
  const moneyPolicy: AgentPolicy = { permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } };
  const readerPolicy: AgentPolicy = { ...moneyPolicy, permissions: ['VIEW_TRANSACTIONS'] };
  const agentNames = async (customerId: string) => new Set((await api.GET('/agents', { params: { query: { customerId, limit: 100 } } })).data?.data.map((a) => a.name));

  itServer('a MANAGE and VIEW token cannot create, connect, change or resume an agent that moves money; nothing changes', async () => {
    const manager = clientFor(await newToken(['MANAGE', 'VIEW']));
    const customerId = await newCustomerId();
    const name = `escalation ${unique()}`;
    const created = await manager.POST('/agents', { body: { name, customerId, policy: moneyPolicy } });
    expect(created.response.status).toBe(403);
    expect(created.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('TRANSACT') });
    expect(await agentNames(customerId)).not.toContain(name);

    // A reading agent it may create; turning it into a money mover, it may not.
    const reader = await manager.POST('/agents', { body: { name: `reader ${unique()}`, customerId, policy: readerPolicy } });
    expect(reader.response.status).toBe(201);
    const readerId = reader.data?.agent.id ?? '';
    const widened = await manager.PATCH('/agents/{agentId}/policy', { params: { path: { agentId: readerId } }, body: { permissions: ['CREATE_TRANSFERS'] } });
    expect(widened.response.status).toBe(403);
    expect(widened.error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: readerId } } })).data?.policy.permissions).toEqual(['VIEW_TRANSACTIONS']);

    // An agent that moves money, made by a token that may: the manager cannot touch its policy
    // (not even lower a limit), issue it a code, or resume it.
    const mover = await api.POST('/agents', { body: { name: `mover ${unique()}`, customerId, policy: { ...moneyPolicy, defaultExecutionMode: 'APPROVAL_REQUIRED' } } });
    const moverId = mover.data?.agent.id ?? '';
    const attempts = [
      await manager.PATCH('/agents/{agentId}/policy', { params: { path: { agentId: moverId } }, body: { defaultExecutionMode: 'AUTO' } }),
      await manager.PATCH('/agents/{agentId}/policy', { params: { path: { agentId: moverId } }, body: { spendingLimits: { perTransactionLimit: 100 } } }),
      await manager.POST('/agents/{agentId}/device-codes', { params: { path: { agentId: moverId } } }),
    ];
    expect(attempts.map((a) => [a.response.status, a.error?.code])).toEqual([[403, 'FORBIDDEN'], [403, 'FORBIDDEN'], [403, 'FORBIDDEN']]);
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: moverId } } })).data?.policy.defaultExecutionMode).toBe('APPROVAL_REQUIRED');
    // The first code still works: the refused issue replaced nothing.
    expect((await raw('POST', `/agents/device-codes/${mover.data?.deviceCode.code}/redeem`, { auth: false })).status).toBe(200);
    expect((await manager.PATCH('/agents/{agentId}', { params: { path: { agentId: moverId } }, body: { isPaused: true } })).response.status).toBe(200);
    const resumed = await manager.PATCH('/agents/{agentId}', { params: { path: { agentId: moverId } }, body: { isPaused: false } });
    expect(resumed.response.status).toBe(403);
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: moverId } } })).data?.isPaused).toBe(true);
  });

  itServer('a token without VIEW cannot create even a reading agent: every agent reads its customer\'s accounts', async () => {
    const manager = clientFor(await newToken(['MANAGE', 'TRANSACT']));
    const { response, error } = await manager.POST('/agents', { body: { name: `blind ${unique()}`, customerId: await newCustomerId(), policy: { ...readerPolicy, permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] } } });
    expect(response.status).toBe(403);
    expect(error?.message).toContain('VIEW');
  });

  itServer('a token holding what the policy gives creates, changes, connects and resumes the agent', async () => {
    const full = clientFor(await newToken(['MANAGE', 'VIEW', 'TRANSACT']));
    const customerId = await newCustomerId();
    const created = await full.POST('/agents', { body: { name: `allowed ${unique()}`, customerId, policy: moneyPolicy } });
    expect(created.response.status).toBe(201);
    const agentId = created.data?.agent.id ?? '';
    expect((await full.PATCH('/agents/{agentId}/policy', { params: { path: { agentId } }, body: { defaultExecutionMode: 'APPROVAL_REQUIRED' } })).response.status).toBe(200);
    expect((await full.POST('/agents/{agentId}/device-codes', { params: { path: { agentId } } })).response.status).toBe(201);
    expect((await full.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: true } })).response.status).toBe(200);
    expect((await full.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: false } })).response.status).toBe(200);
  });
});

describeServer('failed authentications', () => {
  itServer('429 after 10 failures for one clientId, with Retry-After, even with the right secret; other clients are not affected', async () => {
    const token = await newToken(['VIEW']);
    const other = await newToken(['VIEW']);
    for (let i = 0; i < 10; i++) {
      const res = await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(token.clientId, `wrong-${i}`) } });
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    for (const secret of ['wrong-again', token.clientSecret]) {
      const res = await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(token.clientId, secret) } });
      expect(res.status).toBe(429);
      expect(await errorOf(res)).toMatchObject({ status: 429, code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(300);
    }
    expect((await raw('GET', '/config', { auth: false, headers: { Authorization: basicOf(other.clientId, other.clientSecret) } })).status).toBe(200);
  });

  itServer('an unknown clientId is counted too, without reaching the token table', async () => {
    const unknown = randomBytes(16).toString('hex');
    for (let i = 0; i < 10; i++) await raw('GET', '/tokens', { auth: false, headers: { Authorization: basicOf(unknown, 'x') } });
    const res = await raw('GET', '/tokens', { auth: false, headers: { Authorization: basicOf(unknown, 'x') } });
    expect(res.status).toBe(429);
  });
});
