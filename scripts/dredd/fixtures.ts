// What dredd's requests to the real server refer to, made through the API before the run (the
// shared objects, read by many operations) or per transaction (objects an operation uses up:
// deleted, executed, cancelled, claimed, decided), so the order of dredd's transactions does not
// matter.
import { ownerPersonalInfo } from '../../contract-tests/support/personal-info.ts';
import { digits, serverCalls, unique, type Credentials, type Json, type ServerCalls } from './server-calls.ts';

/** The sandbox's valid wallet signature and a client key, as in the spec's examples. */
export const WALLET_SIGNATURE = 'sandbox-valid-signature';
export const CLIENT_KEY = '028254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a';

export const usdAccountInfo = (suffix = '000') => ({
  accountType: 'USD_ACCOUNT',
  accountNumber: `${digits(9)}${suffix}`,
  routingNumber: '021000021',
  bankAccountType: 'CHECKING',
  bankName: 'JPMorgan Chase Bank',
  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
});

const agentPolicy = (mode: 'AUTO' | 'APPROVAL_REQUIRED') => ({
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: mode,
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
});

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A passkey registration the sandbox accepts (as contract-tests/support/wallets.ts builds it). */
export function passkeyBody(accountId: string) {
  const challenge = 'c2FuZGJveC1yZWdpc3RyYXRpb24tY2hhbGxlbmdl';
  return {
    type: 'PASSKEY',
    accountId,
    challenge,
    nickname: "Jane's iPhone",
    attestation: {
      credentialId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM',
      clientDataJson: b64url({ type: 'webauthn.create', challenge, origin: 'https://platform.example.com' }),
      attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjESZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAA',
      transports: ['internal', 'hybrid'],
    },
  };
}

/** A multipart body as text (dredd sends strings), with its content type. */
export function multipart(fields: Record<string, string>): { contentType: string; body: string } {
  const boundary = `dredd-${unique()}${unique()}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    name === 'file'
      ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="passport.pdf"\r\nContent-Type: application/pdf\r\n\r\n${value}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` };
}

export const pdfContent = '%PDF-1.7\n'.padEnd(500, ' ');

export type Fixtures = Awaited<ReturnType<typeof createFixtures>>;

export async function createFixtures(baseUrl: string, credentials: Credentials) {
  const api: ServerCalls = serverCalls(baseUrl, credentials);
  const id = (value: string) => encodeURIComponent(value);

  const newCustomer = (fields: Json = {}) =>
    api.expect<{ id: string; umaAddress?: string }>(201, 'POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `dredd-${unique()}`, fullName: 'Jane Doe', currencies: ['USD'], ...fields });
  const accountsOf = async (customerId: string, query = '') =>
    (await api.expect<{ data: { id: string; type: string; balance: { currency: { code: string } } }[] }>(200, 'GET', `/customers/internal-accounts?customerId=${id(customerId)}${query}`)).data;
  const fund = (accountId: string, amount: number) => api.expect(200, 'POST', `/sandbox/internal-accounts/${id(accountId)}/fund`, { amount });
  const newExternal = async (customerId: string, suffix = '000') =>
    (await api.expect<{ id: string }>(201, 'POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdAccountInfo(suffix) })).id;

  /** A new customer's funded USD account, their EUR account and a USD external account ending in `suffix`. */
  async function customerWithAccounts(suffix = '000') {
    const customer = await newCustomer({ currencies: ['USD', 'EUR'] });
    const accounts = await accountsOf(customer.id);
    const usd = accounts.find((a) => a.balance.currency.code === 'USD')?.id;
    const eur = accounts.find((a) => a.balance.currency.code === 'EUR')?.id;
    if (usd === undefined || eur === undefined) throw new Error(`fixture: customer ${customer.id} lacks a USD or EUR account`);
    await fund(usd, 10_000_000);
    return { customerId: customer.id, umaAddress: customer.umaAddress ?? '', usd, eur, external: await newExternal(customer.id, suffix) };
  }

  /** An agent of the customer, connected: its id and bearer token. */
  async function connectedAgent(customerId: string, mode: 'AUTO' | 'APPROVAL_REQUIRED' = 'AUTO') {
    const created = await api.expect<{ agent: { id: string }; deviceCode: { code: string } }>(201, 'POST', '/agents', { name: `dredd ${unique()}`, customerId, policy: agentPolicy(mode) });
    const redeemed = await api.expect<{ accessToken: string }>(200, 'POST', `/agents/device-codes/${id(created.deviceCode.code)}/redeem`, undefined, { Authorization: '' });
    return { agentId: created.agent.id, accessToken: redeemed.accessToken };
  }

  const main = await customerWithAccounts();
  const business = await api.expect<{ id: string }>(201, 'POST', '/customers', { customerType: 'BUSINESS', platformCustomerId: `dredd-${unique()}`, businessInfo: { legalName: 'Acme Corporation', country: 'US' } });
  const owner = await api.expect<{ id: string }>(201, 'POST', '/beneficial-owners', { customerId: business.id, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 40, personalInfo: ownerPersonalInfo('Lovelace') });
  const verification = await api.expect<{ id: string }>(200, 'POST', '/verifications', { customerId: business.id });
  const token = await api.expect<{ id: string }>(201, 'POST', '/tokens', { name: `dredd ${unique()}`, permissions: ['VIEW'] });
  const platformExternal = await api.expect<{ id: string }>(201, 'POST', '/platform/external-accounts', { currency: 'USD', platformAccountId: `dredd-${unique()}`, accountInfo: usdAccountInfo() });
  const quote = await api.expect<{ id: string }>(201, 'POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: main.usd }, destination: { destinationType: 'ACCOUNT', accountId: main.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
  const transaction = await api.expect<{ id: string }>(201, 'POST', '/transfer-out', { source: { accountId: main.usd }, destination: { accountId: main.external }, amount: 1_000 });
  const agent = await connectedAgent(main.customerId);
  const bearer = { Authorization: `Bearer ${agent.accessToken}` };
  const action = await api.expect<{ id: string }>(201, 'POST', '/agents/me/transfer-out', { source: { accountId: main.usd }, destination: { accountId: main.external }, amount: 100 }, bearer);

  /** A new customer's Embedded Wallet, without credentials. */
  async function newWallet() {
    const customer = await newCustomer({ embeddedWalletCurrencies: ['USD'] });
    const wallet = (await accountsOf(customer.id, '&type=EMBEDDED_WALLET'))[0]?.id;
    if (wallet === undefined) throw new Error(`fixture: customer ${customer.id} has no Embedded Wallet`);
    return { customer, wallet };
  }

  /** A new wallet with an EMAIL_OTP credential and an open session of it. */
  async function walletWithSession() {
    const { customer, wallet } = await newWallet();
    const otp = await api.expect<{ id: string }>(201, 'POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: wallet, email: 'jane.doe@example.com' });
    const session = await api.expect<{ id: string }>(200, 'POST', `/auth/credentials/${id(otp.id)}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: CLIENT_KEY });
    return { customerId: customer.id, walletId: wallet, otpId: otp.id, sessionId: session.id };
  }

  const wallet = await walletWithSession();
  const document = await uploadDocument(main.customerId);

  async function uploadDocument(holder: string) {
    const { contentType, body } = multipart({ documentHolder: holder, documentType: 'PASSPORT', country: 'US', file: pdfContent });
    const res = await fetch(`${baseUrl}/documents`, { method: 'POST', headers: { Authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, 'content-type': contentType }, body });
    if (res.status !== 201) throw new Error(`fixture POST /documents: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  }

  /** The signed retry's headers for a request the server first answered with a 202 challenge. */
  async function signedRetryHeaders(method: string, path: string, body?: unknown): Promise<Record<string, string>> {
    const challenge = await api.expect<{ requestId: string }>(202, method, path, body);
    return { 'Service-Wallet-Signature': WALLET_SIGNATURE, 'Request-Id': challenge.requestId };
  }

  /** An agent's transfer-out waiting for approval: the agent, its action and the action's transaction. */
  async function pendingAgentAction() {
    const pending = await connectedAgent(main.customerId, 'APPROVAL_REQUIRED');
    const body = { source: { accountId: main.usd }, destination: { accountId: main.external }, amount: 100 };
    const submitted = await api.expect<{ id: string; transactionId?: string }>(201, 'POST', '/agents/me/transfer-out', body, { Authorization: `Bearer ${pending.accessToken}` });
    return { agentId: pending.agentId, actionId: submitted.id, transactionId: submitted.transactionId ?? '' };
  }

  return {
    api,
    customerId: main.customerId,
    customerUma: main.umaAddress,
    usd: main.usd,
    eur: main.eur,
    external: main.external,
    businessId: business.id,
    ownerId: owner.id,
    verificationId: verification.id,
    tokenId: token.id,
    platformExternal: platformExternal.id,
    quoteId: quote.id,
    transactionId: transaction.id,
    agentId: agent.agentId,
    agentToken: agent.accessToken,
    actionId: action.id,
    wallet,
    documentId: document,
    walletWithSession,
    signedRetryHeaders,
    pendingAgentAction,
    uploadDocument,
    fresh: {
      wallet: async () => (await newWallet()).wallet,
      /** A new wallet's EMAIL_OTP credential, its first code pending. */
      otpCredential: async () =>
        (await api.expect<{ id: string }>(201, 'POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: (await newWallet()).wallet, email: 'jane.doe@example.com' })).id,
      customer: async () => (await newCustomer()).id,
      token: async () => (await api.expect<{ id: string }>(201, 'POST', '/tokens', { name: `dredd ${unique()}`, permissions: ['VIEW'] })).id,
      external: () => newExternal(main.customerId),
      platformExternal: async () => (await api.expect<{ id: string }>(201, 'POST', '/platform/external-accounts', { currency: 'USD', accountInfo: usdAccountInfo() })).id,
      quote: async () => (await api.expect<{ id: string }>(201, 'POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: main.usd }, destination: { destinationType: 'ACCOUNT', accountId: main.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 })).id,
      agentQuote: async () =>
        (await api.expect<{ id: string }>(201, 'POST', '/agents/me/quotes', { source: { sourceType: 'ACCOUNT', accountId: main.usd }, destination: { destinationType: 'ACCOUNT', accountId: main.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 }, bearer)).id,
      /** An ACH transfer-out to an account ending in 005 stays PENDING long enough to be cancelled. */
      cancellable: async () => {
        const slow = await newExternal(main.customerId, '005');
        return (await api.expect<{ id: string }>(201, 'POST', '/transfer-out', { source: { accountId: main.usd }, destination: { accountId: slow }, amount: 100 })).id;
      },
      /** A verification under manual review: a customer whose name ends in 001 (sandbox guide). */
      reviewedVerification: async () => (await api.expect<{ id: string }>(200, 'POST', '/verifications', { customerId: (await newCustomer({ fullName: 'Jane Doe001' })).id })).id,
      /** A bank account whose number ends in 104: its beneficiary name check stays PENDING (sandbox guide). */
      nameCheckPending: () => newExternal(main.customerId, '104'),
      invitation: async () => (await api.expect<{ code: string }>(201, 'POST', '/invitations', { inviterUma: main.umaAddress, firstName: 'Jane', amountToSend: { amount: 5_000, currencyCode: 'USD' }, expiresAt: '2099-01-01T00:00:00Z' })).code,
      /** An agent not connected yet, with its first device code. */
      unconnectedAgent: async () => {
        const created = await api.expect<{ agent: { id: string }; deviceCode: { code: string } }>(201, 'POST', '/agents', { name: `dredd ${unique()}`, customerId: main.customerId, policy: agentPolicy('AUTO') });
        return { agentId: created.agent.id, code: created.deviceCode.code };
      },
      /** A quote paid by real-time funding to a sandbox UMA address, waiting for the funds. */
      /** A transfer-out's body from the wallet (funded), to a bank account of its owner: answered with a 202 challenge. */
      walletPayout: async () => {
        await fund(wallet.walletId, 10_000);
        return { source: { accountId: wallet.walletId }, destination: { accountId: await newExternal(wallet.customerId) }, amount: 100 };
      },
      fundingQuote: async () => {
        const lookup = await api.expect<{ lookupId: string }>(200, 'GET', `/receiver/uma/${id('$success.usd@sandbox.uma.money')}?customerId=${id(main.customerId)}`);
        return (
          await api.expect<{ id: string }>(201, 'POST', '/quotes', {
            source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: main.customerId },
            destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 5_000,
            lookupId: lookup.lookupId,
            senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
          })
        ).id;
      },
    },
  };
}
