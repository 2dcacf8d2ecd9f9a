// The in-flight Idempotency-Key rule on the keyed POSTs idempotency-in-flight.test.ts leaves out
// (invitations, device codes, the agent's own POSTs): a duplicate that arrives while the first is
// running is 409 (PostgreSQL: PGlite serialises). The 422 for another request with a used key is
// the conformance kit's idempotency.<operationId> check (conformance-kit.test.ts).
import { api, describeServer, idempotencyKey, itPostgres, raw } from '../support/api.ts';
import { connectAgent } from '../support/agents.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createExternalAccount, createIndividualCustomer, customerInternalAccount, fund } from '../support/factories.ts';
import { expectInFlightConflict, inFlightServer } from '../support/in-flight.ts';

interface Keyed {
  path: string;
  body?: unknown;
  authorization?: string;
}

/** A connected agent of a customer with funded USD, an EUR account and a USD bank account. */
async function agentWithAccounts() {
  const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD', 'EUR'] });
  const usd = (await customerInternalAccount(customer.id, 'USD')).id;
  const eur = (await customerInternalAccount(customer.id, 'EUR')).id;
  await fund(usd, 100_000);
  const bank = (await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
  const agent = await connectAgent({}, customer.id);
  return { usd, eur, bank, authorization: `Bearer ${agent.accessToken}` };
}

const quoteBody = (usd: string, eur: string, amount: number) => ({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });

/** Two different valid requests of each operation, by the same caller. */
const keyed: Record<string, () => Promise<[Keyed, Keyed]>> = {
  createInvitation: async () => [
    { path: '/invitations', body: { inviterUma: '$jane.doe@payments.example.org', firstName: 'Ada' } },
    { path: '/invitations', body: { inviterUma: '$jane.doe@payments.example.org', firstName: 'Grace' } },
  ],
  createAgentDeviceCode: async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe' });
    const unconnected = async () => {
      const { data } = await api.POST('/agents', { body: { name: 'Waiting agent', customerId: customer.id, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } } } });
      return `/agents/${encodeURIComponent(data?.agent.id ?? '')}/device-codes`;
    };
    return [{ path: await unconnected() }, { path: await unconnected() }];
  },
  createCurrentAgentExternalAccount: async () => {
    const { authorization } = await agentWithAccounts();
    return [
      { path: '/agents/me/external-accounts', body: { currency: 'USD', accountInfo: externalAccountInfo.usd() }, authorization },
      { path: '/agents/me/external-accounts', body: { currency: 'USD', accountInfo: externalAccountInfo.usd() }, authorization },
    ];
  },
  createCurrentAgentQuote: async () => {
    const { usd, eur, authorization } = await agentWithAccounts();
    return [
      { path: '/agents/me/quotes', body: quoteBody(usd, eur, 1_000), authorization },
      { path: '/agents/me/quotes', body: quoteBody(usd, eur, 2_000), authorization },
    ];
  },
  executeCurrentAgentQuote: async () => {
    const { usd, eur, authorization } = await agentWithAccounts();
    const quote = async (amount: number) => {
      const res = await raw('POST', '/agents/me/quotes', { auth: false, headers: { Authorization: authorization, 'content-type': 'application/json' }, body: JSON.stringify(quoteBody(usd, eur, amount)) });
      return `/agents/me/quotes/${encodeURIComponent(((await res.json()) as { id: string }).id)}/execute`;
    };
    return [{ path: await quote(1_000), authorization }, { path: await quote(2_000), authorization }];
  },
  createCurrentAgentTransferIn: async () => {
    const { usd, bank, authorization } = await agentWithAccounts();
    const body = (amount: number) => ({ source: { accountId: bank }, destination: { accountId: usd }, amount });
    return [{ path: '/agents/me/transfer-in', body: body(100), authorization }, { path: '/agents/me/transfer-in', body: body(200), authorization }];
  },
  createCurrentAgentTransferOut: async () => {
    const { usd, bank, authorization } = await agentWithAccounts();
    const body = (amount: number) => ({ source: { accountId: usd }, destination: { accountId: bank }, amount });
    return [{ path: '/agents/me/transfer-out', body: body(100), authorization }, { path: '/agents/me/transfer-out', body: body(200), authorization }];
  },
};

const send = (r: Keyed, key: string, headers: Record<string, string> = {}, base?: string) =>
  raw('POST', r.path, {
    ...(base === undefined ? {} : { base }),
    ...(r.authorization === undefined ? {} : { auth: false }),
    headers: { ...(r.authorization === undefined ? {} : { Authorization: r.authorization }), ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), 'Idempotency-Key': key, ...headers },
    ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
  });

describeServer('Idempotency-Key in flight on the keyed POSTs tested in their own files', () => {
  const inFlight = inFlightServer();
  for (const [operationId, build] of Object.entries(keyed)) {
    itPostgres(`${operationId}: a duplicate while the first is still running is 409 IDEMPOTENCY_KEY_IN_USE`, async () => {
      const [first] = await build();
      const key = idempotencyKey();
      await expectInFlightConflict((headers) => send(first, key, headers, inFlight.baseUrl), key);
    });
  }
});
