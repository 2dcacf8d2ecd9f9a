// The Idempotency-Key rule a black box cannot provoke: a duplicate that arrives while the first
// request is still running is 409 IDEMPOTENCY_KEY_IN_USE (PostgreSQL: PGlite serialises), for
// every POST that creates something. The rest of what every operation documents (413, 415, 429,
// the replay and the 422 of every keyed POST) is checked by the conformance kit
// (conformance-kit.test.ts: input.<operationId>.413 and .415, auth.<operationId>.429, idempotency.<operationId>).
import { describe, expect, it } from 'vitest';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/context/handler-types.ts';
import { api, idempotencyKey, itPostgres, raw, unique } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createExternalAccount, fundedAccount, newCustomerId, ownerPersonalInfo } from '../support/factories.ts';
import { createQuote, getQuote, umaLookup } from '../support/quotes.ts';
import { operations } from '../support/spec.ts';
import { wallets } from '../support/wallets.ts';
import { connectAgent } from '../support/agents.ts';
import { expectInFlightConflict, inFlightServer } from '../support/in-flight.ts';

const implemented = operations.filter((o) => handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented);

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
  // The sandbox simulations that move money (sandbox-simulations.test.ts), on transfer-outs that stay
  // PENDING (an account ending in 005) or COMPLETED ones (any other ending).
  simulateTransactionCompletion: async () => {
    const { account, first, second } = await twoPayouts('005');
    return [{ path: `/sandbox/transactions/${first}/complete`, body: noBody }, { path: `/sandbox/transactions/${second}/complete`, body: noBody }, statusCount(account.id, 'COMPLETED')];
  },
  simulateTransactionFailure: async () => {
    const { account, first } = await twoPayouts('005');
    const path = `/sandbox/transactions/${first}/fail`;
    return [{ path, body: json({ failureReason: 'BANK_REJECTED' }) }, { path, body: json({ failureReason: 'ACCOUNT_CLOSED' }) }, statusCount(account.id, 'FAILED')];
  },
  simulateTransactionReturn: async () => {
    const { account, first, second } = await twoPayouts('000');
    return [{ path: `/sandbox/transactions/${first}/return`, body: noBody }, { path: `/sandbox/transactions/${second}/return`, body: noBody }, statusCount(account.id, 'FAILED')];
  },
  simulateIncomingPayment: async () => {
    const account = await fundedAccount('USD', 1);
    const path = `/sandbox/internal-accounts/${account.id}/receive`;
    return [{ path, body: json({ amount: 100, currency: 'USD' }) }, { path, body: json({ amount: 200, currency: 'USD' }) }, transactionCount(account.id)];
  },
};

/** Two transfer-outs of one funded account to its customer's bank account ending in `suffix`. */
async function twoPayouts(suffix: string) {
  const { account, external } = await accountPair(suffix);
  const send = async (amount: number) => {
    const sent = await api.POST('/transfer-out', { body: { source: { accountId: account.id }, destination: { accountId: external.id }, amount } });
    if (sent.data === undefined || !('id' in sent.data)) throw new Error(`POST /transfer-out: ${sent.response.status}`);
    return sent.data.id;
  };
  return { account, first: await send(100), second: await send(200) };
}

/** How many of the account's transactions are in `status`. */
const statusCount = (accountId: string, status: 'COMPLETED' | 'FAILED') => async () => (await api.GET('/transactions', { params: { query: { accountId, status } } })).data?.totalCount ?? -1;

/**
 * Keyed POSTs tested in their own files: funding; invitations and device codes, which have no list to
 * count them in; the agent's own POSTs, which take its bearer token.
 */
const ownTests = new Set(['fundSandboxInternalAccount', 'createInvitation', 'createAgentDeviceCode', 'createCurrentAgentExternalAccount', 'createCurrentAgentQuote', 'executeCurrentAgentQuote', 'createCurrentAgentTransferIn', 'createCurrentAgentTransferOut']);
const takesKey = implemented.filter((o) => o.method === 'post' && (o.operation.parameters ?? []).some((p) => JSON.stringify(p).includes('IdempotencyKey')));

describe('Idempotency-Key on every POST that creates something', () => {
  const inFlight = inFlightServer();
  it('covers every implemented POST that takes an Idempotency-Key (the ownTests in keyed-posts.test.ts)', () => {
    expect(takesKey.map((o) => o.operation.operationId).filter((id) => !ownTests.has(id)).sort()).toEqual(Object.keys(creating).sort());
  });

  // PGlite has one connection: a duplicate waits for the first instead of overlapping it.
  for (const [operationId, build] of Object.entries(creating)) {
    itPostgres(`${operationId}: a duplicate while the first is still running is 409 IDEMPOTENCY_KEY_IN_USE`, async () => {
      const [first, , effects] = await build();
      const before = await effects();
      const key = idempotencyKey();
      const send = (headers: Record<string, string> = {}) => {
        const body = first.body();
        return raw('POST', first.path, { base: inFlight.baseUrl, headers: { ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), 'Idempotency-Key': key, ...headers }, ...(body === undefined ? {} : { body }) });
      };
      await expectInFlightConflict(send, key);
      // The first request's one effect: neither the 409 nor the replay added one.
      expect(await effects()).toBe(before + 1);
    });
  }
});
