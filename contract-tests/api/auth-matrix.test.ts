// Every operation against every caller that must not get through (auth-matrix/matrix.ts), on
// requests that name real objects of this platform's customer. Generated from the spec: a new
// operation is in the matrix without a test of its own. Another platform's token needs a database
// two processes share, so that row runs on PostgreSQL.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, inject } from 'vitest';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/context/handler-types.ts';
import { runMatrix, type MatrixCase, type MatrixRequest } from '../auth-matrix/matrix.ts';
import { IdPool } from '../fuzz/id-pool.ts';
import { ALL_AGENT_PERMISSIONS, connectAgent, type ConnectedAgent } from '../support/agents.ts';
import { api, checkedCalls, credentials, isMock, itPostgres, itServer, serverBaseUrl as baseUrl, target } from '../support/api.ts';
import { exampleRequest } from '../support/example-request.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createBeneficialOwner, createBusinessCustomer, createExternalAccount, createPlatformExternalAccount, createToken, type Permission } from '../support/factories.ts';
import { observedStatusesFile } from '../support/observed-statuses.ts';
import { createQuote, umaLookup } from '../support/quotes.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { operations, spec, type SpecOperation } from '../support/spec.ts';
import { wallets } from '../support/wallets.ts';

const root = resolve(import.meta.dirname, '..', '..');
const implemented = operations.filter((o) => handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented);
const PERMISSIONS: Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];
/** Objects another platform reaches by design; tenant ids in their answers are still leaks. */
const SHARED = {
  getInvitation: 'an UMA invitation is claimed by another platform: its code is all it takes to read it',
  claimInvitation: 'the point of an invitation is another platform claiming it',
  cancelInvitation: 'another platform sees the invitation, so 403 (not its creator) reveals nothing',
};

/** This platform's objects, all of them around one customer, collected from the answers that made them. */
async function tenant() {
  const pool = new IdPool();
  const call = checkedCalls();
  const json = async (res: Response | Promise<Response>) => {
    const body = (await (await res).json()) as Record<string, unknown>;
    pool.collect(body);
    return body;
  };
  const customer = await json(call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Tenant Customer', currencies: ['USD', 'EUR'], umaAddress: `$tenant.${randomBytes(4).toString('hex')}@payments.example.org` }));
  const customerId = customer.id as string;
  const accounts = (await json(call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`))).data as { id: string; balance: { currency: { code: string } } }[];
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')?.id ?? '';
  const eur = accounts.find((a) => a.balance.currency.code === 'EUR')?.id ?? '';
  await json(call('POST', `/sandbox/internal-accounts/${encodeURIComponent(usd)}/fund`, { amount: 100_000 }));
  const external = await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
  pool.collect(external);
  pool.collect(await json(call('POST', '/transfer-out', { source: { accountId: usd }, destination: { accountId: external.id }, amount: 100 })));
  pool.collect(await createQuote({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 }));
  pool.collect(await umaLookup('$success.mxn@sandbox.uma.money', customerId));
  await json(call('POST', '/verifications', { customerId }));
  const form = new FormData();
  for (const [k, v] of Object.entries({ documentHolder: customerId, documentType: 'PASSPORT', country: 'US' })) form.append(k, v);
  form.append('file', new Blob(['%PDF-1.7\n'.padEnd(300, ' ')], { type: 'application/pdf' }), 'passport.pdf');
  pool.collect(await (await fetch(`${baseUrl}/documents`, { method: 'POST', headers: { Authorization: basicAuth(credentials) }, body: form })).json());
  const business = await createBusinessCustomer();
  pool.collect(business);
  pool.collect(await createBeneficialOwner(business.id));
  pool.collect(await createToken(['VIEW']));
  pool.collect(await createPlatformExternalAccount({ currency: 'USD', accountInfo: externalAccountInfo.usd() } as never));
  const invitation = await json(call('POST', '/invitations', { inviterUma: customer.umaAddress, firstName: 'Jane' }));
  const wallet = await wallets.walletWithSession();
  pool.collect(wallet);
  // An agent of the customer whose transfer waits for approval: an action and its transaction.
  const agent = await connectAgent({ defaultExecutionMode: 'APPROVAL_REQUIRED' }, customerId);
  pool.collect({ agentId: agent.agentId });
  pool.collect(await json(fetch(`${baseUrl}/agents/me/transfer-out`, { method: 'POST', headers: { Authorization: `Bearer ${agent.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ source: { accountId: usd }, destination: { accountId: external.id }, amount: 100 }) })));
  return { pool, customerId, agent, invitationCode: invitation.code as string, usd, externalId: external.id };
}

/** The operation's example request, naming the tenant's objects instead of the example ids. */
function tenantRequest(pool: IdPool, invitationCode: string) {
  return (op: SpecOperation) => {
    const { path, init } = exampleRequest(op);
    const [pathname = '', query] = path.split('?');
    const named = pathname
      .split('/')
      .map((segment) => {
        const value = decodeURIComponent(segment);
        return encodeURIComponent(/^[0-9a-f]{8}$/.test(value) ? invitationCode : pool.named(value));
      })
      .join('/');
    const params = new URLSearchParams([...new URLSearchParams(query ?? '')].map(([k, v]): [string, string] => [k, pool.named(v)]));
    let body = init.body;
    if (typeof body === 'string' && body !== '') body = JSON.stringify(pool.named(JSON.parse(body)));
    if (body instanceof FormData) {
      const form = new FormData();
      for (const [k, v] of body.entries()) form.append(k, typeof v === 'string' ? pool.named(v) : v);
      body = form;
    }
    return { path: `${named}${params.size > 0 ? `?${params}` : ''}`, init: { headers: init.headers, ...(body === undefined ? {} : { body }) } };
  };
}

/** A token's clientId for failed authentications, renewed before the lockout (10 failures) would answer 429. */
function rotating<T>(make: () => Promise<T>) {
  let uses = 0;
  let current: Promise<T> | undefined;
  return () => {
    if (current === undefined || uses++ % 5 === 4) current = make();
    return current;
  };
}

const observe = (operationId: string, status: number) => appendFileSync(observedStatusesFile(target), `${operationId} ${status}\n`);

/** What an agent's policy gives in token permissions, as the spec states it (AgentPolicy's x-token-permissions). */
const POLICY_GIVES = spec.components.schemas?.AgentPolicy?.['x-token-permissions'] as { everyAgent: Permission[]; permissions: Record<string, Permission[]> };
const policyGives = (agentPermissions: string[]): Permission[] => PERMISSIONS.filter((p) => POLICY_GIVES.everyAgent.includes(p) || agentPermissions.some((a) => POLICY_GIVES.permissions[a]?.includes(p)));

/**
 * Agent permissions of a policy that gives `p`: those that need it; for what every agent gives,
 * one that needs nothing beyond the operation's own permission (so `p` is given by every agent alone).
 */
function agentPermissionsGiving(p: Permission, own: Permission): string[] {
  const all = Object.entries(POLICY_GIVES.permissions);
  if (POLICY_GIVES.everyAgent.includes(p)) return [(all.find(([, needs]) => needs.every((n) => n === own)) ?? all[0] ?? [''])[0]];
  return all.filter(([, needs]) => needs.includes(p)).map(([a]) => a);
}

/** Whether an operation that gives power (x-grants) can give `p`. */
function canGive(op: SpecOperation, p: Permission): boolean {
  switch (op.operation['x-grants']) {
    case 'REQUESTED_PERMISSIONS':
      return true;
    case 'AGENT_POLICY':
      return agentPermissionsGiving(p, op.operation['x-permission'] as Permission).length > 0;
    case 'PAYMENT':
      return p === 'TRANSACT';
    default:
      throw new Error(`${op.operation.operationId}: x-grants ${String(op.operation['x-grants'])} is unknown to the matrix`);
  }
}

const bodySchemaOf = (op: SpecOperation): string | undefined => {
  const ref = ((op.operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content?.['application/json']?.schema?.$ref ?? '').split('/').pop();
  return ref === '' ? undefined : ref;
};

// The matrix asks the server itself, so not through the proxy, which would answer the refusals itself.
describe.skipIf(isMock)('authentication and isolation matrix', () => {
  let fixture: Awaited<ReturnType<typeof tenant>>;
  const ready = () => (fixture === undefined ? tenant().then((t) => (fixture = t)) : Promise.resolve(fixture));

  itServer('every operation refuses every caller that is not allowed, with its documented status', { timeout: 300_000 }, async () => {
    const { pool, customerId, agent, invitationCode } = await ready();
    const wrongSecretToken = rotating(() => createToken(['VIEW']));
    const deletedToken = rotating(async () => {
      const token = await createToken(PERMISSIONS);
      await api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
      return token;
    });
    const deletedAgent = connectAgent({}, customerId).then(async (a) => (await api.DELETE('/agents/{agentId}', { params: { path: { agentId: a.agentId } } }), a));
    const lacking = new Map<string, Promise<string>>();
    const tokenLacking = (permission: Permission) => {
      if (!lacking.has(permission)) lacking.set(permission, createToken(PERMISSIONS.filter((p) => p !== permission)).then((t) => basicAuth(t)));
      return lacking.get(permission) as Promise<string>;
    };
    const agentsLacking = new Map<string, Promise<ConnectedAgent>>();
    const agentLacking = (permission: string) => {
      if (!agentsLacking.has(permission)) agentsLacking.set(permission, connectAgent({ permissions: ALL_AGENT_PERMISSIONS.filter((p) => p !== permission) }, customerId));
      return agentsLacking.get(permission) as Promise<ConnectedAgent>;
    };
    const malformed = { basic: ['Basic', 'Basic !!!not-base64', `Basic ${btoa('no-colon-here')}`, `Basic ${btoa(':')}`, 'Token abc', 'Basic'.padEnd(5_000, 'A')], bearer: ['Bearer', 'Bearer a b', 'Basic Zm9vOmJhcg==', 'Bearer \u00e9'.replace('\u00e9', '%'), 'Bearer '.padEnd(5_000, 'A')] };
    let malformedUse = 0;
    const secured = (_o: SpecOperation, s: string) => s !== 'none';
    let otherAgent: Promise<ConnectedAgent> | undefined;
    let pausedAgent: Promise<ConnectedAgent> | undefined;
    const cases: MatrixCase[] = [
      { name: 'no credentials', applies: secured, authorization: async () => undefined, expect: { statuses: [401] } },
      {
        name: 'wrong secret',
        applies: secured,
        authorization: async (_o, s) => (s === 'basic' ? basicAuth({ clientId: (await wrongSecretToken()).clientId, clientSecret: `sk_sandbox_${randomBytes(32).toString('base64url')}` }) : `Bearer ${randomBytes(32).toString('base64url')}`),
        expect: { statuses: [401] },
      },
      { name: 'malformed header', applies: secured, authorization: async (_o, s) => (s === 'basic' ? malformed.basic : malformed.bearer)[malformedUse++ % 5], expect: { statuses: [401] } },
      {
        name: 'deleted token or agent',
        applies: secured,
        authorization: async (_o, s) => (s === 'basic' ? basicAuth(await deletedToken()) : `Bearer ${(await deletedAgent).accessToken}`),
        expect: { statuses: [401] },
      },
      {
        name: 'without the permission',
        applies: (o, s) => (s === 'basic' && o.operation['x-permission'] !== undefined) || (s === 'bearer' && o.operation['x-agent-permission'] !== 'ANY'),
        authorization: async (o, s) => (s === 'basic' ? tokenLacking(o.operation['x-permission'] as Permission) : `Bearer ${(await agentLacking(o.operation['x-agent-permission'] as string)).accessToken}`),
        expect: { statuses: [403] },
      },
      {
        name: 'paused agent',
        applies: (_o, s) => s === 'bearer',
        authorization: async () => `Bearer ${(await (pausedAgent ??= connectAgent({}, customerId).then(async (a) => (await api.PATCH('/agents/{agentId}', { params: { path: { agentId: a.agentId } }, body: { isPaused: true } }), a)))).accessToken}`,
        expect: { statuses: [403] },
      },
      { name: 'platform token on /agents/me', applies: (_o, s) => s === 'bearer', authorization: async () => basicAuth(credentials), expect: { statuses: [401] } },
      { name: 'agent token on platform routes', applies: (_o, s) => s === 'basic', authorization: async () => `Bearer ${agent.accessToken}`, expect: { statuses: [401] } },
      {
        name: "another customer's agent",
        applies: (_o, s) => s === 'bearer',
        authorization: async () => `Bearer ${(await (otherAgent ??= connectAgent())).accessToken}`,
        expect: 'isolated',
      },
    ];
    const report = await runMatrix({ baseUrl, operations: implemented, cases, request: tenantRequest(pool, invitationCode), tenantIds: pool.ids(), observe });
    console.log(report.summary);
    expect(report.failures).toEqual([]);
  });

  itServer('every operation that gives power (x-grants) refuses a token that does not hold what it gives, and serves one that does', { timeout: 300_000 }, async () => {
    const { customerId, usd, externalId } = await ready();
    const tokens = new Map<string, Promise<string>>();
    const tokenHolding = (permissions: Permission[]) => {
      const key = [...new Set(permissions)].sort().join();
      if (!tokens.has(key)) tokens.set(key, createToken([...new Set(permissions)]).then((t) => basicAuth(t)));
      return tokens.get(key) as Promise<string>;
    };
    const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const pathOf = (op: SpecOperation, ids: Record<string, string>) => op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? `no-${name}`));
    const policyOf = (permissions: string[]) => ({ permissions, defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } });
    const agentWith = async (permissions: string[]) => {
      const { data, response } = await api.POST('/agents', { body: { name: 'Granted', customerId, policy: policyOf(permissions) as never } });
      if (data === undefined) throw new Error(`POST /agents: ${response.status}`);
      return data.agent.id;
    };

    /** A request of the operation that gives `p` (and what it gives in all), built once for both cases. */
    const built = new Map<string, Promise<MatrixRequest & { gives: Permission[] }>>();
    const grantingRequest = (op: SpecOperation, p: Permission) => {
      const key = `${op.operation.operationId} ${p}`;
      if (!built.has(key)) built.set(key, buildGranting(op, p));
      return built.get(key) as Promise<MatrixRequest & { gives: Permission[] }>;
    };
    const buildGranting = async (op: SpecOperation, p: Permission): Promise<MatrixRequest & { gives: Permission[] }> => {
      const id = op.operation.operationId;
      const own = op.operation['x-permission'] as Permission;
      const body = bodySchemaOf(op);
      if (op.operation['x-grants'] === 'REQUESTED_PERMISSIONS' && body === 'TokenCreateRequest') {
        return { path: op.path, init: json({ name: `granted ${p}`, permissions: [p] }), gives: [p] };
      }
      if (op.operation['x-grants'] === 'AGENT_POLICY') {
        const permissions = agentPermissionsGiving(p, own);
        const gives = policyGives(permissions);
        if (body === 'AgentCreateRequest') return { path: op.path, init: json({ name: `gives ${p}`, customerId, policy: policyOf(permissions) }), gives };
        // An agent that reads only, given the permissions.
        if (body === 'AgentPolicyUpdateRequest') return { path: pathOf(op, { agentId: await agentWith(['VIEW_TRANSACTIONS']) }), init: json({ permissions }), gives };
        // A paused agent, resumed.
        if (body === 'AgentUpdateRequest') {
          const agentId = await agentWith(permissions);
          await api.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: true } });
          return { path: pathOf(op, { agentId }), init: json({ isPaused: false }), gives };
        }
        // A device code for an agent not connected yet.
        if (body === undefined && op.path.includes('{agentId}')) return { path: pathOf(op, { agentId: await agentWith(permissions) }), init: { headers: {} }, gives };
      }
      if (op.operation['x-grants'] === 'PAYMENT') {
        // An agent's transfer waiting for approval: its action, and its transaction.
        const agent = await connectAgent({ permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED' }, customerId);
        const res = await fetch(`${baseUrl}/agents/me/transfer-out`, { method: 'POST', headers: { Authorization: `Bearer ${agent.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ source: { accountId: usd }, destination: { accountId: externalId }, amount: 10 }) });
        const action = (await res.json()) as { id: string; status: string; transactionId: string };
        if (action.status !== 'PENDING_APPROVAL') throw new Error(`agent transfer-out: ${res.status} ${JSON.stringify(action)}`);
        return { path: pathOf(op, { agentId: agent.agentId, actionId: action.id, transactionId: action.transactionId }), init: { headers: {} }, gives: ['TRANSACT'] };
      }
      throw new Error(`${id} (x-grants ${String(op.operation['x-grants'])}): the matrix has no request that gives ${p}; add one`);
    };

    const granting = implemented.filter((o) => o.operation['x-grants'] !== undefined);
    expect(granting.length).toBeGreaterThanOrEqual(7);
    // Per permission, two cases on the same request: a token with everything but it (so with the
    // operation's own permission) is refused, and nothing changed, since a token holding just the
    // operation's permission and what the request gives is served next.
    const cases: MatrixCase[] = PERMISSIONS.flatMap((p): MatrixCase[] => [
      {
        name: `gives ${p} without holding it`,
        applies: (o) => o.operation['x-grants'] !== undefined && o.operation['x-permission'] !== p && canGive(o, p),
        request: (o) => grantingRequest(o, p),
        authorization: async () => tokenHolding(PERMISSIONS.filter((q) => q !== p)),
        expect: { statuses: [403], codes: ['FORBIDDEN'] },
      },
    ]).concat(
      PERMISSIONS.map((p): MatrixCase => ({
        name: `gives ${p}, holding what it gives`,
        applies: (o) => o.operation['x-grants'] !== undefined && canGive(o, p),
        request: (o) => grantingRequest(o, p),
        authorization: async (o) => tokenHolding([o.operation['x-permission'] as Permission, ...(await grantingRequest(o, p)).gives]),
        expect: { statuses: [200, 201] },
      })),
    );
    const report = await runMatrix({ baseUrl, operations: granting, cases, request: () => ({ path: '', init: { headers: {} } }), tenantIds: new Set(), observe });
    console.log(report.summary);
    expect(report.failures).toEqual([]);
    // Every operation that gives power was refused at least once, or gives only its own permission.
    const refused = Object.entries(report.perCase).filter(([name]) => name.includes('without')).reduce((n, [, r]) => n + r.cells, 0);
    expect(refused).toBeGreaterThanOrEqual(granting.filter((o) => o.operation['x-grants'] !== 'PAYMENT').length);
  });

  itPostgres("another platform's token never reaches this platform's objects", { timeout: 300_000 }, async () => {
    const { pool, invitationCode } = await ready();
    // Not execFileSync: a worker blocked for seconds misses the server closing its idle keep-alive
    // connections, and the next request (of this file or the next one the worker runs) fails on one.
    const { stdout: out } = await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/create-platform.ts', 'Matrix platform'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), PAYMENTS_MASTER_KEY: inject('masterKey') },
      encoding: 'utf8',
    });
    const other = basicAuth({ clientId: /clientId:\s+(\S+)/.exec(out)?.[1] ?? '', clientSecret: /clientSecret:\s+(\S+)/.exec(out)?.[1] ?? '' });
    const cases: MatrixCase[] = [{ name: 'another platform', applies: (_o, s) => s === 'basic', authorization: async () => other, expect: 'isolated' }];
    const report = await runMatrix({ baseUrl, operations: implemented, cases, request: tenantRequest(pool, invitationCode), tenantIds: pool.ids(), shared: SHARED, observe });
    console.log(report.summary);
    expect(report.failures).toEqual([]);
  });
});
