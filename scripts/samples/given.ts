// What check:samples makes through the public API before a sample runs, with the kit's fixtures
// (contract-tests/kit/): the objects an example names that no earlier sample makes (a business
// customer, an Embedded Wallet), and the state an action needs (a transaction pending approval, a
// payout still PENDING, an unclaimed invitation). A step answers the example ids it stands in for:
// for the rest of the run (`keep`) or for its one sample (`only`). Nothing here answers for a sample.
import { agent, accountPair, business, externalAccount, accountInfo, individual, verification, type Transaction } from '../../contract-tests/kit/fixtures.ts';
import { created, transferOut } from '../../contract-tests/kit/checks/transfers.ts';
import { passkeyBody, SANDBOX_SIGNATURE } from '../../contract-tests/kit/checks/wallet.ts';
import type { World } from '../../contract-tests/kit/world.ts';

export interface Stands {
  /** Example id → real id, for every later sample. */
  keep?: Record<string, string>;
  /** Example id → real id, for this sample only. */
  only?: Record<string, string>;
  /** The agent access token this sample calls with. */
  accessToken?: string;
}
/** What the run knows: the real id an example id stands for so far. */
export type Known = (example: string) => string | undefined;
type Step = (t: World, known: Known) => Promise<Stands>;

const ex = (kind: string, n: string) => `${kind}:019542f5-b3e7-1d02-0000-${n.padStart(12, '0')}`;
const TRANSACTION = ex('Transaction', '8');
const AGENT = ex('Agent', 'c');
const ACTION = ex('AgentAction', 'd');

/** A transfer-out from a new funded account to a bank account ending in `suffix` (sandbox guide: 005 stays PENDING). */
async function payout(t: World, suffix: string): Promise<Transaction> {
  const { internal, external } = await accountPair(t, suffix, 10_000);
  return created(t, await transferOut(t, internal.id, external.id, 100));
}

/** An agent whose every payment waits for approval, and one transfer-out of it waiting. */
async function pendingAction(t: World): Promise<{ agentId: string; actionId: string; transactionId: string; accessToken: string }> {
  const { internal, external, customerId } = await accountPair(t, '000', 10_000);
  const connected = await agent(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, customerId);
  const body = { source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 100 };
  const submitted = t.expect<{ id: string; transactionId?: string }>(
    await t.call('POST', '/agents/me/transfer-out', { body, key: t.key(), as: { bearer: connected.accessToken } }),
    201,
    'an agent transfer-out under APPROVAL_REQUIRED is answered 201 with its action (createCurrentAgentTransferOut)',
  );
  return { agentId: connected.agentId, actionId: submitted.id, transactionId: submitted.transactionId ?? '', accessToken: connected.accessToken };
}

/** Steps for an example id no answer has named yet, run before the first sample naming it. */
export const MADE_WHEN_NAMED: Record<string, Step> = {
  // The business customer of the examples (createCustomer's second example; its sample sends the first).
  [ex('Customer', '11')]: async (t) => ({ keep: { [ex('Customer', '11')]: (await business(t)).id } }),
  // Jane Doe's Embedded Wallet, named either way (InternalAccount: or EmbeddedWallet:).
  [ex('EmbeddedWallet', '25')]: wallet,
  [ex('InternalAccount', '25')]: wallet,
  // The wallet's passkey (createAuthCredential's second example), added with the signed retry.
  [ex('AuthMethod', '1a')]: async (t, known) => {
    const walletId = known(ex('InternalAccount', '25')) ?? (await wallet(t)).keep?.[ex('InternalAccount', '25')] ?? '';
    const body = passkeyBody(walletId);
    let reply = await t.call('POST', '/auth/credentials', { body, key: t.key() });
    if (reply.status === 202) {
      const { requestId } = t.expect<{ requestId: string }>(reply, 202, 'a further credential is answered 202 with a challenge (createAuthCredential)');
      reply = await t.call('POST', '/auth/credentials', { body, key: t.key(), headers: { 'Service-Wallet-Signature': SANDBOX_SIGNATURE, 'Request-Id': requestId } });
    }
    return { keep: { [ex('AuthMethod', '1a')]: t.expect<{ id: string }>(reply, 201, 'a signed retry adds the credential: 201 (createAuthCredential)').id } };
  },
  // A quote paid by real-time funding to an UMA address (createQuote's example realtimeFundingToUma).
  [ex('Quote', '17')]: async (t, known) => {
    const customerId = known(ex('Customer', '1')) ?? (await individual(t)).id;
    const umaAddress = '$success.eur@sandbox.uma.money';
    const lookup = t.expect<{ lookupId: string }>(await t.call('GET', `/receiver/uma/${encodeURIComponent(umaAddress)}`, { query: { customerId } }), 200, 'lookupUmaReceiver answers 200');
    const body = {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'EUR' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 5000,
      lookupId: lookup.lookupId,
      purposeOfPayment: 'GIFT',
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
    };
    return { keep: { [ex('Quote', '17')]: t.expect<{ id: string }>(await t.call('POST', '/quotes', { body, key: t.key() }), 201, 'createQuote answers 201').id } };
  },
};
async function wallet(t: World): Promise<Stands> {
  const customer = await individual(t, { currencies: ['USD'], embeddedWalletCurrencies: ['USD'] });
  const page = t.expect<{ data: { id: string; type: string }[] }>(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } }), 200, 'listCustomerInternalAccounts answers 200');
  const id = page.data[0]?.id ?? '';
  return { keep: { [ex('InternalAccount', '25')]: id, [ex('EmbeddedWallet', '25')]: id.replace(/^InternalAccount:/, 'EmbeddedWallet:') } };
}

/** Steps per operation, for the state its sample acts on. */
export const GIVEN: Record<string, Step> = {
  approveTransaction: async (t) => ({ only: { [TRANSACTION]: (await pendingAction(t)).transactionId } }),
  rejectTransaction: async (t) => ({ only: { [TRANSACTION]: (await pendingAction(t)).transactionId } }),
  cancelTransaction: async (t) => ({ only: { [TRANSACTION]: (await payout(t, '005')).id } }),
  simulateTransactionCompletion: async (t) => ({ only: { [TRANSACTION]: (await payout(t, '005')).id } }),
  simulateTransactionFailure: async (t) => ({ only: { [TRANSACTION]: (await payout(t, '005')).id } }),
  simulateTransactionReturn: async (t) => ({ only: { [TRANSACTION]: (await payout(t, '000')).id } }),
  // Decided by the sandbox at once but for a name ending in 001: a manual review (sandbox guide).
  simulateVerificationOutcome: async (t) => ({ only: { '019542f5-b3e7-1d02-0000-000000000004': (await verification(t, (await individual(t, { fullName: 'Jane Doe001' })).id)).id } }),
  // A bank account whose number ends in 104: its name check stays PENDING (sandbox guide).
  simulateBeneficiaryVerification: async (t, known) => {
    const customerId = known(ex('Customer', '1')) ?? (await individual(t)).id;
    return { only: { [ex('ExternalAccount', '6')]: (await externalAccount(t, customerId, 'USD', accountInfo.usd('104'))).id } };
  },
  // claimInvitation claimed the example's invitation: cancel one still open.
  cancelInvitation: async (t) => {
    const inviter = await individual(t);
    const body = { inviterUma: inviter.umaAddress, firstName: 'Jane', amountToSend: { amount: 5_000, currencyCode: 'USD' }, expiresAt: '2099-01-01T00:00:00Z' };
    const invitation = t.expect<{ code: string }>(await t.call('POST', '/invitations', { body, key: t.key() }), 201, 'createInvitation answers 201');
    return { only: { '019542f5': invitation.code } };
  },
  // createAgentDeviceCode replaced the agent's first code: redeem the one it issued.
  redeemAgentDeviceCode: async (_t, known) => {
    const newest = known('AGENT-Q4TZ-8HWN');
    return newest === undefined ? {} : { only: { 'AGENT-X7K9-M2P4': newest } };
  },
  // The path's example (shared with getInternalAccount) is Jane Doe's USD account; the change is
  // the wallet's (a parameter of its own for PATCH alone would be a breaking change of the path).
  updateInternalAccount: async (t, known) => ({ only: { [ex('InternalAccount', '5')]: known(ex('InternalAccount', '25')) ?? (await wallet(t)).keep?.[ex('InternalAccount', '25')] ?? '' } }),
  getAgentAction: actionOfItsOwn,
  approveAgentAction: actionOfItsOwn,
  rejectAgentAction: actionOfItsOwn,
};
async function actionOfItsOwn(t: World): Promise<Stands> {
  const pending = await pendingAction(t);
  return { only: { [AGENT]: pending.agentId, [ACTION]: pending.actionId } };
}
