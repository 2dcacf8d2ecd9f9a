// Isolation between platforms (authentication guide: "another platform's object answers 404 exactly
// as one that does not exist"): every operation of the API token, called with a second platform's
// token on requests naming this platform's objects, never reaches or shows them. Needs a token of
// another platform of the same deployment (--other-client-id, --other-client-secret).
import type { Check } from '../check.ts';
import { CheckFailure } from '../check.ts';
import { operations, securityOf, type Operation } from '../bundle.ts';
import { exampleRequest } from '../example-request.ts';
import { accountInfo, accountOf, agent, business, document, externalAccount, fund, individual, owner, token, verification } from '../fixtures.ts';
import type { Caller, RequestOptions } from '../http.ts';
import type { World } from '../world.ts';
import { check, enc } from './define.ts';

const ID = /^([A-Z][A-Za-z]*):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IDS = /[A-Z][A-Za-z]*:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Invitations are claimed by other platforms by design: their code is all it takes. */
const SHARED = new Set(['getInvitation', 'claimInvitation', 'cancelInvitation']);
const GUIDE = 'authentication guide: isolation';

interface Tenant {
  /** One id of each type. */
  byType: Map<string, string>;
  /** The opaque ids (no `<Type>:` prefix), by the path parameter that takes them. */
  opaque: Map<string, string>;
  all: Set<string>;
  invitationCode: string;
}

/** Path parameters whose ids are opaque: the tenant's object is named by the parameter, not by a prefix. */
const OPAQUE = ['documentId', 'verificationId', 'sessionId'];

/** This platform's objects, one of each kind, made once per run. */
const tenant = (t: World) =>
  t.once('isolation-tenant', async (): Promise<Tenant> => {
    const byType = new Map<string, string>();
    const all = new Set<string>();
    const keep = (value: unknown) => {
      for (const m of JSON.stringify(value).matchAll(IDS)) {
        all.add(m[0]);
        const type = m[0].split(':')[0] ?? '';
        if (!byType.has(type)) byType.set(type, m[0]);
      }
    };
    const customer = await individual(t, { currencies: ['USD', 'EUR'], embeddedWalletCurrencies: ['USD'] });
    keep(customer);
    const usd = await fund(t, (await accountOf(t, customer.id, 'USD')).id, 50_000);
    keep(usd);
    keep(await accountOf(t, customer.id, 'EUR'));
    const bank = await externalAccount(t, customer.id, 'USD', accountInfo.usd());
    keep(bank);
    keep((await t.call('POST', '/transfer-out', { body: { source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 100 }, key: t.key() })).body);
    keep((await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: (await accountOf(t, customer.id, 'EUR')).id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 }, key: t.key() })).body);
    const opaque = new Map<string, string>();
    const checked = await verification(t, customer.id);
    keep(checked);
    opaque.set('verificationId', checked.id);
    const uploaded = await document(t, customer.id);
    keep(uploaded);
    opaque.set('documentId', uploaded.id);
    const company = await business(t);
    keep(company);
    keep(await owner(t, company.id));
    keep(await token(t, ['VIEW']));
    const wallet = (await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } })).body as { data: { id: string }[] };
    const walletId = wallet.data[0]?.id ?? '';
    const credential = (await t.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }, key: t.key() })).body as { id: string };
    keep(credential);
    const session = (await t.call('POST', `/auth/credentials/${enc(credential.id)}/verify`, { body: { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: '028254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a' } })).body as { id: string };
    keep(session);
    opaque.set('sessionId', session.id);
    const a = await agent(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, customer.id);
    keep({ agentId: a.agentId });
    keep((await t.call('POST', '/agents/me/transfer-out', { body: { source: { accountId: usd.id }, destination: { accountId: bank.id }, amount: 100 }, key: t.key(), as: { bearer: a.accessToken } })).body);
    const invitation = (await t.call('POST', '/invitations', { body: { inviterUma: customer.umaAddress }, key: t.key() })).body as { code: string };
    // The platform's own config id is shared knowledge of nobody else either.
    all.delete(byType.get('PlatformConfig') ?? '');
    for (const id of opaque.values()) all.add(id);
    return { byType, opaque, all, invitationCode: invitation.code };
  });

/** Replaces every example id of the request by the tenant's object of the same type. */
function named<T>(value: T, tenant: Tenant): T {
  const swap = (s: string): string => {
    const type = ID.exec(s)?.[1];
    const alias = type === 'EmbeddedWallet' ? 'InternalAccount' : type;
    return (alias === undefined ? undefined : tenant.byType.get(alias)) ?? s;
  };
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => (typeof v === 'string' ? swap(v) : v)) as T;
}

function tenantRequest(op: Operation, tenant: Tenant): { path: string; options: RequestOptions; sent: string; opaque: string[] } {
  const example = exampleRequest(op);
  const values = Object.fromEntries(Object.entries(example.pathValues).map(([k, v]) => [k, tenant.opaque.get(k) ?? (/^[0-9a-f]{8}$/.test(v) ? tenant.invitationCode : named(v, tenant))]));
  const request = exampleRequest(op, values);
  const options: RequestOptions = { ...request.options, query: named(request.options.query ?? {}, tenant) };
  if (request.options.body !== undefined) options.body = named(request.options.body, tenant);
  if (request.options.form !== undefined) {
    const form = new FormData();
    for (const [k, v] of request.options.form.entries()) form.append(k, typeof v === 'string' ? named(v, tenant) : v);
    options.form = form;
  }
  const opaque = Object.keys(example.pathValues).flatMap((k) => (tenant.opaque.has(k) ? [tenant.opaque.get(k) ?? ''] : []));
  return { path: request.path, options, sent: `${decodeURIComponent(request.path)} ${JSON.stringify(options.query)} ${JSON.stringify(options.body ?? '')}`, opaque };
}

/** An agent of another customer of this platform, with every permission: it must not see the tenant's customer's objects. */
const otherAgent = (t: World) => t.once('isolation-other-agent', () => agent(t));

function isolation(op: Operation): Check {
  const byAgent = securityOf(op) === 'bearer';
  const rule = byAgent
    ? `an agent sees only its own customer's objects: another customer's agent naming one gets 404 as if it did not exist, nothing is done to it, and no answer holds its ids (${GUIDE})`
    : `another platform's token never reaches this platform's objects: a path naming one is 404 as if it did not exist, nothing is done to them, and no answer holds their ids (${GUIDE})`;
  return check(`isolation.${op.operationId}`, { operations: [op.operationId], rule, needs: byAgent ? ['state', 'sandbox'] : ['state', 'sandbox', 'second-platform'], tags: ['isolation'] }, async (t) => {
    const other = t.otherPlatform;
    if (!byAgent && other === undefined) throw new CheckFailure('isolation needs a second platform', 'a token', 'none');
    const owned = await tenant(t);
    const { path, options, sent, opaque } = tenantRequest(op, owned);
    const as: Caller = byAgent ? { bearer: (await otherAgent(t)).accessToken } : { basic: other as { clientId: string; clientSecret: string } };
    const reply = await t.call(op.method.toUpperCase(), path, { ...options, as });
    const namedIds = new Set([...[...sent.matchAll(IDS)].map((m) => m[0]), ...opaque].filter((id) => owned.all.has(id)));
    const inPath = [...decodeURIComponent(path).matchAll(IDS)].some((m) => owned.all.has(m[0])) || opaque.length > 0 || decodeURIComponent(path).includes(owned.invitationCode);
    if (!SHARED.has(op.operationId)) {
      t.is.ok(reply.status !== 403, `a 403 would say the object exists: another platform's objects are 404 (${GUIDE})`, 'not 403', () => `403 ${reply.text.slice(0, 200)}`, reply);
      if (inPath) t.is.ok(reply.status === 404, `${byAgent ? "another customer's" : "another platform's"} object in the path is 404, as one that does not exist (${GUIDE})`, '404', () => `${reply.status} ${reply.text.slice(0, 200)}`, reply);
    }
    if (namedIds.size > 0 && op.method !== 'get' && !SHARED.has(op.operationId)) {
      t.is.ok(reply.status >= 400, `nothing is done to another platform's objects (${GUIDE})`, 'a refusal', () => `${reply.status} ${reply.text.slice(0, 200)}`, reply);
    }
    const leaked = [...[...reply.text.matchAll(IDS)].map((m) => m[0]), ...[...owned.opaque.values()].filter((id) => reply.text.includes(id))].filter((id) => owned.all.has(id) && !namedIds.has(id));
    t.is.ok(leaked.length === 0, `no answer shows another platform's objects (${GUIDE})`, 'none of its ids', () => [...new Set(leaked)].join(', '), reply);
  });
}

/**
 * Whether an operation's request names objects (ids, an invitation code) or reads a list: the
 * others act only on the caller's own platform (its settings, new objects of its own), which the
 * second platform's token would change for nothing.
 */
function namesOrLists(op: Operation): boolean {
  if (op.method === 'get') return true;
  const { path, options } = exampleRequest(op);
  const form = [...(options.form?.values() ?? [])].filter((v) => typeof v === 'string').join(' ');
  return ID_IN.test(`${decodeURIComponent(path)} ${JSON.stringify(options.query)} ${JSON.stringify(options.body ?? '')} ${form}`) || /\{invitationCode\}/.test(op.path) || OPAQUE.some((name) => op.path.includes(`{${name}}`));
}
const ID_IN = /[A-Z][A-Za-z]*:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

export function isolationChecks(): Check[] {
  return operations.filter((op) => securityOf(op) !== 'none' && namesOrLists(op)).map(isolation);
}
