// Agents: created by the platform for one customer with a policy and a first device code, connected
// by redeeming the code (once, within 15 minutes) for a bearer access token, then calling
// /agents/me with that token only, scoped to their customer and to their policy's permissions.
// Paused agents get 403, deleted ones 401. Agent actions (quotes, transfers, approval) are in
// agent-actions.test.ts.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { expect, inject } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, client, describeServer, errorOf, itPostgres, itServer, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createExternalAccount, createIndividualCustomer, customerInternalAccount, deleteCustomer, fund } from '../support/factories.ts';

type Schemas = components['schemas'];
type Policy = Schemas['AgentPolicy'];

const policy = (overrides: Partial<Policy> = {}): Policy => ({
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000 },
  ...overrides,
});

async function newAgent(overrides: Partial<Policy> = {}, customerId?: string) {
  const owner = customerId ?? (await createIndividualCustomer({ fullName: 'Jane Doe' })).id;
  const { data, response } = await api.POST('/agents', { body: { name: 'Bill-pay assistant', customerId: owner, policy: policy(overrides) } });
  if (data === undefined) throw new Error(`POST /agents: ${response.status}`);
  return { ...data, customerId: owner };
}

const redeem = (code: string) => raw('POST', `/agents/device-codes/${code}/redeem`, { auth: false });

/** A connected agent: its client (bearer token only) and what redeeming answered. */
async function connectedAgent(overrides: Partial<Policy> = {}, customerId?: string) {
  const created = await newAgent(overrides, customerId);
  const res = await redeem(created.deviceCode.code);
  expect(res.status).toBe(200);
  const redeemed = (await res.json()) as Schemas['AgentDeviceCodeRedeemResponse'];
  return { ...created, redeemed, via: client({ accessToken: redeemed.accessToken }) };
}

describeServer('agent management', () => {
  itServer('create: the agent, not connected yet, and its first device code (15 minutes)', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe' });
    const { data, response } = await api.POST('/agents', { body: { name: 'Bill-pay assistant', customerId: customer.id, policy: policy() } });
    expect(response.status).toBe(201);
    expect(data?.agent).toMatchObject({ name: 'Bill-pay assistant', customerId: customer.id, isPaused: false, isConnected: false, policy: policy() });
    expect(data?.agent.usage).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
    expect(data?.deviceCode).toMatchObject({ agentId: data?.agent.id, redeemed: false });
    const lifetime = Date.parse(data?.deviceCode.expiresAt ?? '') - Date.parse(data?.agent.createdAt ?? '');
    expect(lifetime).toBe(15 * 60_000);
  });

  itServer('create refuses an unknown customer (404), a deleted one (410), an account of another customer in the policy (400)', async () => {
    const unknown = await api.POST('/agents', { body: { name: 'x', customerId: 'Customer:019542f5-b3e7-1d02-0000-00000000dead', policy: policy() } });
    expect(unknown.response.status).toBe(404);
    const gone = await createIndividualCustomer();
    await deleteCustomer(gone.id);
    expect((await api.POST('/agents', { body: { name: 'x', customerId: gone.id, policy: policy() } })).response.status).toBe(410);
    const owner = await createIndividualCustomer();
    const stranger = await createIndividualCustomer();
    const foreign = (await customerInternalAccount(stranger.id, 'USD')).id;
    const refused = await api.POST('/agents', { body: { name: 'x', customerId: owner.id, policy: policy({ accountRestrictions: { allowedAccountIds: [foreign] } }) } });
    expect(refused.response.status).toBe(400);
    expect((refused.error as { details?: { errors?: { field: string }[] } }).details?.errors?.[0]?.field).toBe('/policy/accountRestrictions/allowedAccountIds/0');
  });

  itServer('list with filters, get, rename, pause', async () => {
    const agent = await newAgent();
    const { data: byCustomer } = await api.GET('/agents', { params: { query: { customerId: agent.customerId } } });
    expect(byCustomer?.data.map((a) => a.id)).toEqual([agent.agent.id]);
    expect((await api.GET('/agents', { params: { query: { customerId: agent.customerId, isConnected: true } } })).data?.totalCount).toBe(0);
    const { data: renamed } = await api.PATCH('/agents/{agentId}', { params: { path: { agentId: agent.agent.id } }, body: { name: 'Travel helper', isPaused: true } });
    expect(renamed).toMatchObject({ name: 'Travel helper', isPaused: true });
    expect((await api.GET('/agents', { params: { query: { customerId: agent.customerId, isPaused: true } } })).data?.totalCount).toBe(1);
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: agent.agent.id } } })).data).toEqual(renamed);
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: 'Agent:019542f5-b3e7-1d02-0000-00000000dead' } } })).response.status).toBe(404);
  });

  itServer('policy update: lists and modes replaced, limits merged field by field, null removes', async () => {
    const customer = await createIndividualCustomer();
    const account = (await customerInternalAccount(customer.id, 'USD')).id;
    const agent = await newAgent({ accountRestrictions: { allowedAccountIds: [account] }, approvalThresholds: { currency: 'USD', amount: 25_000 } }, customer.id);
    const agentId = agent.agent.id;
    const { data } = await api.PATCH('/agents/{agentId}/policy', {
      params: { path: { agentId } },
      body: { defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { dailyLimit: null, monthlyLimit: 900_000 }, accountRestrictions: null },
    });
    expect(data?.policy).toEqual({
      permissions: policy().permissions,
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, monthlyLimit: 900_000 },
      approvalThresholds: { currency: 'USD', amount: 25_000 },
    });
    const { data: again } = await api.PATCH('/agents/{agentId}/policy', { params: { path: { agentId } }, body: { permissions: ['VIEW_TRANSACTIONS'], approvalThresholds: null } });
    expect(again?.policy).toEqual({ permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, monthlyLimit: 900_000 } });
  });
});

describeServer('device codes', () => {
  itServer('redeeming: once, for the access token; the agent is connected and needs no other code', async () => {
    const agent = await newAgent();
    const res = await redeem(agent.deviceCode.code);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Schemas['AgentDeviceCodeRedeemResponse'];
    expect(body).toMatchObject({ agentId: agent.agent.id, agentName: 'Bill-pay assistant', policy: policy() });
    expect(body.accessToken).toMatch(/^agt_sandbox_/);
    expect((await errorOf(await redeem(agent.deviceCode.code))).code).toBe('DEVICE_CODE_ALREADY_REDEEMED');
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId: agent.agent.id } } })).data?.isConnected).toBe(true);
    const another = await api.POST('/agents/{agentId}/device-codes', { params: { path: { agentId: agent.agent.id } } });
    expect(another.response.status).toBe(409);
    expect((await redeem('AGENT-ZZZZ-ZZZZ')).status).toBe(404);
  });

  itServer('a new code replaces the unredeemed one (400 DEVICE_CODE_EXPIRED for the old)', async () => {
    const agent = await newAgent();
    const { data: fresh, response } = await api.POST('/agents/{agentId}/device-codes', { params: { path: { agentId: agent.agent.id } } });
    expect(response.status).toBe(201);
    expect((await errorOf(await redeem(agent.deviceCode.code))).code).toBe('DEVICE_CODE_EXPIRED');
    expect((await redeem(fresh?.code ?? '')).status).toBe(200);
  });
});

describeServer('Idempotency-Key on the agent POSTs outside the generic test', () => {
  itServer('a replayed device-code issue is the stored code, issued once (it still redeems)', async () => {
    const agent = await newAgent();
    const issue = () => raw('POST', `/agents/${agent.agent.id}/device-codes`, { headers: { 'Idempotency-Key': `code-${agent.agent.id}` } });
    const first = await issue();
    const replay = await issue();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const text = await first.text();
    expect(await replay.text()).toBe(text);
    const { code } = JSON.parse(text) as { code: string };
    expect((await redeem(code)).status).toBe(200);
  });

  itServer("the agent's external account: a replay is the stored account, registered once; another body is 422", async () => {
    const agent = await connectedAgent({ permissions: ['MANAGE_EXTERNAL_ACCOUNTS'] });
    const key = `ext-${agent.agent.id}`;
    const register = (accountInfo: unknown) => agent.via.POST('/agents/me/external-accounts', { params: { header: { 'Idempotency-Key': key } }, body: { currency: 'USD', accountInfo } as never });
    const info = externalAccountInfo.usd();
    const first = await register(info);
    const replay = await register(info);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect((await register(externalAccountInfo.usd())).response.status).toBe(422);
    expect((await agent.via.GET('/agents/me/external-accounts')).data?.totalCount).toBe(1);
  });

  itServer("the agent's quote: a replay is the stored quote, created once; another body is 422", async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR'] });
    const [usd, eur] = [(await customerInternalAccount(customer.id, 'USD')).id, (await customerInternalAccount(customer.id, 'EUR')).id];
    const agent = await connectedAgent({}, customer.id);
    const quote = (amount: number) =>
      agent.via.POST('/agents/me/quotes', {
        params: { header: { 'Idempotency-Key': `quote-${agent.agent.id}` } },
        body: { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount },
      });
    const first = await quote(1_000);
    const replay = await quote(1_000);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect((await quote(2_000)).response.status).toBe(422);
  });
});

describeServer('the bearer token and /agents/me', () => {
  itServer('only the agent token works on /agents/me, and only platform credentials elsewhere (401)', async () => {
    const agent = await connectedAgent();
    const me = await agent.via.GET('/agents/me');
    expect(me.data).toMatchObject({ id: agent.agent.id, customerId: agent.customerId, isConnected: true });
    expect((await raw('GET', '/agents/me')).status).toBe(401); // platform Basic credentials
    expect((await raw('GET', '/agents/me', { auth: false })).status).toBe(401);
    expect((await raw('GET', '/agents/me', { auth: false, headers: { Authorization: 'Bearer agt_sandbox_not-a-token-of-anyone-at-all-000' } })).status).toBe(401);
    expect((await agent.via.GET('/customers')).response.status).toBe(401);
    expect((await raw('GET', '/customers', { auth: false, headers: { Authorization: `Bearer ${agent.redeemed.accessToken}` } })).status).toBe(401);
  });

  itServer('paused: 403 AGENT_PAUSED until resumed; deleted: 401 at once, its codes gone (404)', async () => {
    const agent = await connectedAgent();
    const agentId = agent.agent.id;
    await api.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: true } });
    const paused = await agent.via.GET('/agents/me');
    expect(paused.response.status).toBe(403);
    expect((paused.error as { code?: string }).code).toBe('AGENT_PAUSED');
    await api.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: false } });
    expect((await agent.via.GET('/agents/me')).response.status).toBe(200);

    const waiting = await newAgent();
    expect((await api.DELETE('/agents/{agentId}', { params: { path: { agentId } } })).response.status).toBe(204);
    expect((await api.DELETE('/agents/{agentId}', { params: { path: { agentId: waiting.agent.id } } })).response.status).toBe(204);
    expect((await agent.via.GET('/agents/me')).response.status).toBe(401);
    expect((await api.GET('/agents/{agentId}', { params: { path: { agentId } } })).response.status).toBe(404);
    expect((await redeem(waiting.deviceCode.code)).status).toBe(404);
  });

  itServer("the policy's permissions are enforced: 403 AGENT_PERMISSION_DENIED", async () => {
    const agent = await connectedAgent({ permissions: ['CREATE_QUOTES'] });
    for (const res of [await agent.via.GET('/agents/me/transactions'), await agent.via.GET('/agents/me/external-accounts')]) {
      expect(res.response.status).toBe(403);
      expect((res.error as { code?: string }).code).toBe('AGENT_PERMISSION_DENIED');
    }
    // ANY: every connected agent may read itself and its customer's internal accounts.
    expect((await agent.via.GET('/agents/me/internal-accounts')).response.status).toBe(200);
  });

  itServer("everything is its customer's: accounts, external accounts, transactions; another customer's is 404", async () => {
    const agent = await connectedAgent({ permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS'] });
    const mine = (await customerInternalAccount(agent.customerId, 'USD')).id;
    const stranger = await createIndividualCustomer();
    const theirs = (await customerInternalAccount(stranger.id, 'USD')).id;
    await fund(mine, 5_000);
    await fund(theirs, 7_000);
    const onlyTransactionOf = async (customerId: string) => (await api.GET('/transactions', { params: { query: { customerId } } })).data?.data[0]?.id ?? '';
    const [myFunding, theirFunding] = [await onlyTransactionOf(agent.customerId), await onlyTransactionOf(stranger.id)];

    const { data: accounts } = await agent.via.GET('/agents/me/internal-accounts');
    expect(accounts?.data.map((a) => a.id)).toEqual([mine]);
    const { data: transactions } = await agent.via.GET('/agents/me/transactions');
    expect(transactions?.data.map((t) => t.id)).toEqual([myFunding]);
    const foreign = await agent.via.GET('/agents/me/transactions/{transactionId}', { params: { path: { transactionId: theirFunding } } });
    expect(foreign.response.status).toBe(404);
    expect((await agent.via.GET('/agents/me/transactions/{transactionId}', { params: { path: { transactionId: myFunding } } })).data?.id).toBe(myFunding);

    const registered = await agent.via.POST('/agents/me/external-accounts', { body: { currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(registered.response.status).toBe(201);
    expect(registered.data?.customerId).toBe(agent.customerId);
    const forOther = await agent.via.POST('/agents/me/external-accounts', { body: { customerId: stranger.id, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(forOther.response.status).toBe(400);
    await createExternalAccount({ customerId: stranger.id, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const { data: externals } = await agent.via.GET('/agents/me/external-accounts');
    expect(externals?.data.map((a) => a.id)).toEqual([registered.data?.id]);
  });

  itServer("quotes: from the customer's accounts only, within accountRestrictions, immediatelyExecute only from held accounts; an agent reads only its own", async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD', 'EUR'] });
    const usd = (await customerInternalAccount(customer.id, 'USD')).id;
    const eur = (await customerInternalAccount(customer.id, 'EUR')).id;
    const agent = await connectedAgent({}, customer.id);
    const body = (source: string, destination: string) => ({
      source: { sourceType: 'ACCOUNT' as const, accountId: source },
      destination: { destinationType: 'ACCOUNT' as const, accountId: destination },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 1_000,
    });
    const created = await agent.via.POST('/agents/me/quotes', { body: body(usd, eur) });
    expect(created.response.status).toBe(201);
    const quoteId = created.data?.id ?? '';
    expect((await agent.via.GET('/agents/me/quotes/{quoteId}', { params: { path: { quoteId } } })).data).toEqual(created.data);
    expect((await api.GET('/quotes/{quoteId}', { params: { path: { quoteId } } })).data?.id).toBe(quoteId);

    const realtime = await agent.via.POST('/agents/me/quotes', {
      body: { source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true },
    });
    expect((realtime.error as { code?: string }).code).toBe('IMMEDIATE_EXECUTION_NOT_SUPPORTED');
    const stranger = await createIndividualCustomer({ currencies: ['EUR'] });
    const foreign = await agent.via.POST('/agents/me/quotes', { body: body(usd, (await customerInternalAccount(stranger.id, 'EUR')).id) });
    expect(foreign.response.status).toBe(404);

    // Another agent of the same customer, and the platform's own quotes, are not this agent's.
    const other = await connectedAgent({}, customer.id);
    expect((await other.via.GET('/agents/me/quotes/{quoteId}', { params: { path: { quoteId } } })).response.status).toBe(404);
    const { data: platformQuote } = await api.POST('/quotes', { body: body(usd, eur) });
    expect((await agent.via.GET('/agents/me/quotes/{quoteId}', { params: { path: { quoteId: platformQuote?.id ?? '' } } })).response.status).toBe(404);

    const restricted = await connectedAgent({ accountRestrictions: { allowedAccountIds: [usd] } }, customer.id);
    const outside = await restricted.via.POST('/agents/me/quotes', { body: body(usd, eur) });
    expect(outside.response.status).toBe(403);
    expect((outside.error as { code?: string }).code).toBe('AGENT_POLICY_VIOLATION');
    const noPermission = await connectedAgent({ permissions: ['VIEW_TRANSACTIONS'] }, customer.id);
    expect((await noPermission.via.POST('/agents/me/quotes', { body: body(usd, eur) })).response.status).toBe(403);
  });

  itPostgres('the access token is stored only as its SHA-256', async () => {
    const agent = await connectedAgent();
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      const { rows } = await db.query<{ row: string; hash: string }>('select a::text as row, access_token_hash as hash from agents a where id = $1', [agent.agent.id]);
      expect(rows[0]?.hash).toBe(createHash('sha256').update(agent.redeemed.accessToken).digest('hex'));
      expect(rows[0]?.row).not.toContain(agent.redeemed.accessToken);
      const codes = await db.query<{ row: string }>('select c::text as row from agent_device_codes c where agent_id = $1', [agent.agent.id]);
      expect(codes.rows.every((r) => !r.row.includes(agent.deviceCode.code))).toBe(true);
    } finally {
      await db.end();
    }
  });
});
