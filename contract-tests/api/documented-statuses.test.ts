// Statuses every implemented operation documents, produced for each from the spec: 413 for a body
// over the limit, 415 for a body of another media type, 429 once its caller's clientId has failed
// authentication too often; and, for every POST that creates something, the Idempotency-Key
// rules: a replay is the stored response with exactly one effect, another request with the key
// is 422.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/http/handler-types.ts';
import { api, describeServer, errorOf, idempotencyKey, isMock, itPostgres, itServer, raw, unique } from '../support/api.ts';
import { exampleRequest } from '../support/example-request.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createExternalAccount, createToken, fundedAccount, newCustomerId, ownerPersonalInfo } from '../support/factories.ts';
import { createQuote, getQuote, umaLookup } from '../support/quotes.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { deref, operations, type SpecOperation } from '../support/spec.ts';
import { wallets } from '../support/wallets.ts';
import { connectAgent } from '../support/agents.ts';
import { expectInFlightConflict, inFlightServer } from '../support/in-flight.ts';

const implemented = operations.filter((o) => handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented);
const bodyTypes = (o: SpecOperation) => Object.keys((deref<{ content?: object }>(o.operation.requestBody)?.content ?? {}) as object);
const withJsonBody = implemented.filter((o) => bodyTypes(o).includes('application/json'));
const withMultipartBody = implemented.filter((o) => bodyTypes(o).includes('multipart/form-data'));
const withBasicAuth = implemented.filter((o) => (o.operation.security ?? []).some((s) => 'basicAuth' in s));
const cases = (list: SpecOperation[]) => list.map((o) => [o.operation.operationId, o] as const);

/** The credentials an operation takes: the suite's platform token, or a connected agent's bearer token. */
let agentToken: Promise<string> | undefined;
const agentBearer = () => (agentToken ??= connectAgent().then((agent) => agent.accessToken));
const credentialsOf = async (o: SpecOperation, headers: Record<string, string>) =>
  (o.operation.security ?? []).some((s) => 'bearerAuth' in s) ? { auth: false, headers: { ...headers, Authorization: `Bearer ${await agentBearer()}` } } : { headers };

describeServer('limits of every operation with a body', () => {
  it.skipIf(isMock).each(cases(withJsonBody))('%s: 413 PAYLOAD_TOO_LARGE over 1 MB', async (_id, o) => {
    const { path } = exampleRequest(o);
    const res = await raw(o.method.toUpperCase(), path, { ...(await credentialsOf(o, { 'content-type': 'application/json' })), body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it.skipIf(isMock).each(cases(withMultipartBody))('%s: 413 FILE_TOO_LARGE over 10 MiB', async (_id, o) => {
    const { path, init } = exampleRequest(o);
    const form = init.body as FormData;
    form.set('file', new Blob([new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25)], { type: 'application/pdf' }), 'big.pdf');
    const res = await raw(o.method.toUpperCase(), path, { body: form });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ status: 413, code: 'FILE_TOO_LARGE' });
  });

  it.skipIf(isMock).each(cases([...withJsonBody, ...withMultipartBody]))('%s: 415 UNSUPPORTED_MEDIA_TYPE for another media type', async (_id, o) => {
    const { path } = exampleRequest(o);
    const res = await raw(o.method.toUpperCase(), path, { ...(await credentialsOf(o, { 'content-type': 'text/plain' })), body: 'name=x' });
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});

describeServer('failed authentications', () => {
  // One clientId locked out by 10 failures; then every operation refuses it before anything else.
  const locked = randomBytes(16).toString('hex');
  const lockedAuth = basicAuth({ clientId: locked, clientSecret: 'wrong' });
  let lockedOut: Promise<void> | undefined;
  const lockOut = () =>
    (lockedOut ??= (async () => {
      for (let i = 0; i < 10; i++) await raw('GET', '/config', { auth: false, headers: { Authorization: lockedAuth } });
    })());

  it.skipIf(isMock).each(cases(withBasicAuth))('%s: 429 TOO_MANY_FAILED_AUTHENTICATIONS with Retry-After', async (_id, o) => {
    await lockOut();
    const { path, init } = exampleRequest(o);
    const res = await raw(o.method.toUpperCase(), path, { ...init, auth: false, headers: { ...init.headers, Authorization: lockedAuth } });
    expect(res.status).toBe(429);
    expect(await errorOf(res)).toMatchObject({ code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

/** Two different valid requests for each POST that creates something, built on fresh state. */
type Request = { path: string; body: () => string | FormData | undefined; headers?: Record<string, string> };
const noBody = () => undefined;
const json = (value: unknown) => () => JSON.stringify(value);
const owner = (lastName: string, customerId: string) => ({ customerId, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo(lastName) });
const upload = (holder: string, country: string) => () => {
  const form = new FormData();
  form.append('documentHolder', holder);
  form.append('documentType', 'PASSPORT');
  form.append('country', country);
  form.append('file', new Blob(['%PDF-1.7\n'.padEnd(500, ' ')], { type: 'application/pdf' }), 'passport.pdf');
  return form;
};

/** A new customer's funded USD account and an external USD account of theirs ending in `suffix`. */
async function accountPair(suffix: string) {
  const account = await fundedAccount('USD', 10_000);
  const external = await createExternalAccount({ customerId: account.customerId ?? '', currency: 'USD', accountInfo: externalAccountInfo.usd(suffix) });
  return { account, external };
}

/** A new customer's funded USD account and their EUR account. */
async function usdAndEur() {
  const customerId = await newCustomerId('INDIVIDUAL', { currencies: ['USD', 'EUR'] });
  const accounts = (await api.GET('/customers/internal-accounts', { params: { query: { customerId } } })).data?.data ?? [];
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')?.id ?? '';
  const eur = accounts.find((a) => a.balance.currency.code === 'EUR')?.id ?? '';
  await api.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd } }, body: { amount: 10_000 } });
  return { usd, eur };
}

/** `count` transfer-outs an agent submitted that wait for approval, and how many have been decided since. */
async function pendingAgentActions(count: number) {
  const customerId = await newCustomerId();
  const { data: account } = await api.GET('/customers/internal-accounts', { params: { query: { customerId } } });
  const usd = account?.data[0]?.id ?? '';
  await api.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd } }, body: { amount: 10_000 } });
  const bank = (await createExternalAccount({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
  const { agentId, accessToken: token } = await connectAgent({ permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } }, customerId);
  const actions: { id: string; transactionId?: string }[] = [];
  for (let i = 0; i < count; i++) {
    const res = await raw('POST', '/agents/me/transfer-out', { auth: false, headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ source: { accountId: usd }, destination: { accountId: bank }, amount: 100 }) });
    actions.push((await res.json()) as { id: string; transactionId?: string });
  }
  const decided = async () => (await api.GET('/agents/{agentId}/actions', { params: { path: { agentId } } })).data?.data.filter((a) => a.status !== 'PENDING_APPROVAL').length ?? -1;
  return { agentId, actions, decided };
}

/** How many transactions the account has, funding excluded. */
const transactionCount = (accountId: string) => async () =>
  ((await api.GET('/transactions', { params: { query: { accountId } } })).data?.totalCount ?? 0) - 1;

const creating: Record<string, () => Promise<[Request, Request, () => Promise<number>]>> = {
  createToken: async () => {
    const name = `idem ${unique()}`;
    const count = async () => (await api.GET('/tokens', { params: { query: { name, limit: 100 } } })).data?.totalCount ?? -1;
    return [{ path: '/tokens', body: json({ name, permissions: ['VIEW'] }) }, { path: '/tokens', body: json({ name, permissions: ['MANAGE'] }) }, count];
  },
  createCustomer: async () => {
    const id = `idem-${unique()}`;
    const count = async () => (await api.GET('/customers', { params: { query: { platformCustomerId: id } } })).data?.totalCount ?? -1;
    return [{ path: '/customers', body: json({ customerType: 'INDIVIDUAL', platformCustomerId: id }) }, { path: '/customers', body: json({ customerType: 'INDIVIDUAL', platformCustomerId: id, fullName: 'Jane' }) }, count];
  },
  createBeneficialOwner: async () => {
    const customerId = await newCustomerId('BUSINESS');
    const count = async () => (await api.GET('/beneficial-owners', { params: { query: { customerId } } })).data?.totalCount ?? -1;
    return [{ path: '/beneficial-owners', body: json(owner('Lovelace', customerId)) }, { path: '/beneficial-owners', body: json(owner('Byron', customerId)) }, count];
  },
  uploadDocument: async () => {
    const customerId = await newCustomerId();
    const count = async () => (await api.GET('/documents', { params: { query: { documentHolder: customerId } } })).data?.totalCount ?? -1;
    return [{ path: '/documents', body: upload(customerId, 'US') }, { path: '/documents', body: upload(customerId, 'GB') }, count];
  },
  createVerification: async () => {
    const customerId = await newCustomerId();
    const other = await newCustomerId();
    const count = async () => (await api.GET('/verifications', { params: { query: { customerId } } })).data?.totalCount ?? -1;
    return [{ path: '/verifications', body: json({ customerId }) }, { path: '/verifications', body: json({ customerId: other }) }, count];
  },
  createCustomerExternalAccount: async () => {
    const customerId = await newCustomerId();
    const count = async () => (await api.GET('/customers/external-accounts', { params: { query: { customerId } } })).data?.totalCount ?? -1;
    return [
      { path: '/customers/external-accounts', body: json({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() }) },
      { path: '/customers/external-accounts', body: json({ customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() }) },
      count,
    ];
  },
  createTransferIn: async () => {
    const { account, external } = await accountPair('000');
    const body = (amount: number) => json({ source: { accountId: external.id }, destination: { accountId: account.id }, amount });
    return [{ path: '/transfer-in', body: body(100) }, { path: '/transfer-in', body: body(200) }, transactionCount(account.id)];
  },
  createTransferOut: async () => {
    const { account, external } = await accountPair('000');
    const body = (amount: number) => json({ source: { accountId: account.id }, destination: { accountId: external.id }, amount });
    return [{ path: '/transfer-out', body: body(100) }, { path: '/transfer-out', body: body(200) }, transactionCount(account.id)];
  },
  cancelTransaction: async () => {
    // An ACH transfer-out to an account ending in 005 stays PENDING long enough to be cancelled.
    const { account, external } = await accountPair('005');
    const sent = await api.POST('/transfer-out', { body: { source: { accountId: account.id }, destination: { accountId: external.id }, amount: 100 } });
    if (sent.data === undefined || !('id' in sent.data)) throw new Error(`POST /transfer-out: ${sent.response.status}`);
    const path = `/transactions/${sent.data.id}/cancel`;
    const cancelled = async () => (await api.GET('/transactions', { params: { query: { accountId: account.id, status: 'CANCELLED' } } })).data?.totalCount ?? -1;
    return [{ path, body: json({ reason: 'first' }) }, { path, body: json({ reason: 'second' }) }, cancelled];
  },
  createQuote: async () => {
    const { usd, eur } = await usdAndEur();
    const body = (amount: number) => json({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true });
    return [{ path: '/quotes', body: body(1_000) }, { path: '/quotes', body: body(2_000) }, transactionCount(usd)];
  },
  executeQuote: async () => {
    const { usd, eur } = await usdAndEur();
    const quote = async () => (await createQuote({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 })).id;
    const [first, second] = [await quote(), await quote()];
    return [{ path: `/quotes/${first}/execute`, body: noBody }, { path: `/quotes/${second}/execute`, body: noBody }, transactionCount(usd)];
  },
  sendSandboxPayment: async () => {
    const customerId = await newCustomerId();
    const lookupId = (await umaLookup('$success.usd@sandbox.uma.money', customerId)).lookupId;
    const quote = async () =>
      createQuote({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
        lookupId,
        senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
      });
    const [first, second] = [await quote(), await quote()];
    const paid = async () => (await Promise.all([getQuote(first.id), getQuote(second.id)])).filter((q) => q.status !== 'PENDING').length;
    return [{ path: '/sandbox/send', body: json({ quoteId: first.id, currencyCode: 'EUR' }) }, { path: '/sandbox/send', body: json({ quoteId: second.id, currencyCode: 'EUR' }) }, paid];
  },
  receiveSandboxUmaPayment: async () => {
    const customerId = await newCustomerId();
    const { data: customer } = await api.GET('/customers/{customerId}', { params: { path: { customerId } } });
    const body = (amount: number) => json({ senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress: customer?.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: amount });
    const count = async () => (await api.GET('/transactions', { params: { query: { customerId } } })).data?.totalCount ?? -1;
    return [{ path: '/sandbox/uma/receive', body: body(100) }, { path: '/sandbox/uma/receive', body: body(200) }, count];
  },
  createAuthCredential: async () => {
    const { walletId } = await wallets.newWallet();
    const count = async () => (await wallets.listCredentials(walletId)).data.length;
    const body = (email: string) => json({ type: 'EMAIL_OTP', accountId: walletId, email });
    return [{ path: '/auth/credentials', body: body('jane@example.com') }, { path: '/auth/credentials', body: body('john@example.com') }, count];
  },
  createAgent: async () => {
    const customerId = await newCustomerId();
    const count = async () => (await api.GET('/agents', { params: { query: { customerId } } })).data?.totalCount ?? -1;
    const body = (name: string) => json({ name, customerId, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } } });
    return [{ path: '/agents', body: body('first') }, { path: '/agents', body: body('second') }, count];
  },
  approveAgentAction: async () => {
    const { agentId, actions, decided } = await pendingAgentActions(2);
    return [{ path: `/agents/${agentId}/actions/${actions[0]?.id}/approve`, body: noBody }, { path: `/agents/${agentId}/actions/${actions[1]?.id}/approve`, body: noBody }, decided];
  },
  rejectAgentAction: async () => {
    const { agentId, actions, decided } = await pendingAgentActions(2);
    return [{ path: `/agents/${agentId}/actions/${actions[0]?.id}/reject`, body: json({ reason: 'no' }) }, { path: `/agents/${agentId}/actions/${actions[1]?.id}/reject`, body: json({ reason: 'no' }) }, decided];
  },
  approveTransaction: async () => {
    const { actions, decided } = await pendingAgentActions(2);
    return [{ path: `/transactions/${actions[0]?.transactionId}/approve`, body: noBody }, { path: `/transactions/${actions[1]?.transactionId}/approve`, body: noBody }, decided];
  },
  rejectTransaction: async () => {
    const { actions, decided } = await pendingAgentActions(2);
    return [{ path: `/transactions/${actions[0]?.transactionId}/reject`, body: noBody }, { path: `/transactions/${actions[1]?.transactionId}/reject`, body: noBody }, decided];
  },
  createPlatformExternalAccount: async () => {
    const reference = `idem-${unique()}`;
    const count = async () => (await api.GET('/platform/external-accounts', { params: { query: { limit: 100 } } })).data?.data.filter((a) => a.platformAccountId === reference).length ?? -1;
    return [
      { path: '/platform/external-accounts', body: json({ currency: 'USD', platformAccountId: reference, accountInfo: externalAccountInfo.usd() }) },
      { path: '/platform/external-accounts', body: json({ currency: 'USD', platformAccountId: reference, accountInfo: externalAccountInfo.usd() }) },
      count,
    ];
  },
};

/**
 * Keyed POSTs tested in their own files: funding; invitations and device codes, which have no list to
 * count them in; the agent's own POSTs, which take its bearer token.
 */
const ownTests = new Set(['fundSandboxInternalAccount', 'createInvitation', 'createAgentDeviceCode', 'createCurrentAgentExternalAccount', 'createCurrentAgentQuote', 'executeCurrentAgentQuote', 'createCurrentAgentTransferIn', 'createCurrentAgentTransferOut']);
const takesKey = implemented.filter((o) => o.method === 'post' && (o.operation.parameters ?? []).some((p) => JSON.stringify(p).includes('IdempotencyKey')));

describe('Idempotency-Key on every POST that creates something', () => {
  const inFlight = inFlightServer();
  it('covers every implemented POST that takes an Idempotency-Key (the ownTests have their own)', () => {
    expect(takesKey.map((o) => o.operation.operationId).filter((id) => !ownTests.has(id)).sort()).toEqual(Object.keys(creating).sort());
  });

  itServer('only a request that reached its handler is recorded: a 400 or 403 before it leaves the key free', async () => {
    const [valid] = await creating.createCustomer!();
    const key = idempotencyKey();
    const send = (body: string, headers: Record<string, string> = {}) =>
      raw('POST', '/customers', { auth: headers.Authorization === undefined, headers: { 'content-type': 'application/json', 'Idempotency-Key': key, ...headers }, body });
    expect((await send('{"customerType":"INDIVIDUAL","colour":"red"}')).status).toBe(400);
    // 403 for another credential: keys are per credential, so this one's key stays free as well.
    expect((await send(valid.body() as string, { Authorization: basicAuth(await createToken(['VIEW'])) })).status).toBe(403);
    const created = await send(valid.body() as string);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  // PGlite has one connection: a duplicate waits for the first instead of overlapping it.
  for (const [operationId, build] of Object.entries(creating)) {
    itPostgres(`${operationId}: a duplicate while the first is still running is 409 IDEMPOTENCY_KEY_IN_USE`, async () => {
      const [first] = await build();
      const key = idempotencyKey();
      const send = (headers: Record<string, string> = {}) => {
        const body = first.body();
        return raw('POST', first.path, { base: inFlight.baseUrl, headers: { ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), 'Idempotency-Key': key, ...headers }, ...(body === undefined ? {} : { body }) });
      };
      await expectInFlightConflict(send, key);
    });
  }

  for (const [operationId, build] of Object.entries(creating)) {
    itServer(`${operationId}: a replay is the stored response with one effect; another request with the key is 422`, async () => {
      const [first, second, count] = await build();
      const key = idempotencyKey();
      const send = (r: Request) => {
        const body = r.body();
        return raw('POST', r.path, { headers: { ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), 'Idempotency-Key': key }, ...(body === undefined ? {} : { body }) });
      };
      const original = await send(first);
      expect(original.status).toBeLessThan(300);
      const replay = await send(first);
      expect(replay.status).toBe(original.status);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.text()).toBe(await original.text());
      expect(await count()).toBe(1);
      const other = await send(second);
      expect(other.status).toBe(422);
      expect(await errorOf(other)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(await count()).toBe(1);
    });
  }
});
