// Embedded Wallet helpers of the contract tests: a customer's wallet, the /auth calls and the
// signed-retry calls answered as the server answered (tests check refusals too), each checked
// against the contract; and the sandbox's outbox of one-time-code e-mails (a test control).
import type { components } from '../../generated/openapi.js';
import { baseUrl, checkedCalls, controlsOrigin, credentials } from './api.ts';
import { ok } from './quotes.ts';

type Schemas = components['schemas'];
/** A page of sessions, its items typed (the envelope's `data` is `unknown[]` in ListEnvelope). */
export type SessionPage = Omit<Schemas['AuthSessionListResponse'], 'data'> & { data: Schemas['AuthSession'][] };
export type AuthMethod = Schemas['AuthMethod'];
export type AuthSession = Schemas['AuthSession'];
export type SignedRetryChallenge = Schemas['SignedRetryChallenge'];

export const SIGNATURE = 'sandbox-valid-signature';
export const CLIENT_KEY = '028254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a';
export const OTHER_CLIENT_KEY = `03${'ab'.repeat(32)}`;

/** The headers of a signed retry of `challenge`. */
export const signed = (challenge: { requestId: string }, signature = SIGNATURE): Record<string, string> => ({ 'Service-Wallet-Signature': signature, 'Request-Id': challenge.requestId });

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned OIDC ID token with these claims (the sandbox checks claims, not signatures). */
export const oidcToken = (claims: Record<string, unknown>): string => `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.c2lnbmF0dXJl`;

/** A passkey registration answering `challenge`. */
export function passkeyBody(accountId: string, challenge = 'c2FuZGJveC1yZWdpc3RyYXRpb24tY2hhbGxlbmdl', answered = challenge) {
  return {
    type: 'PASSKEY' as const,
    accountId,
    challenge,
    nickname: "Jane's iPhone",
    attestation: {
      credentialId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM',
      clientDataJson: b64url({ type: 'webauthn.create', challenge: answered, origin: 'https://platform.example.com' }),
      attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjESZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAA',
      transports: ['internal', 'hybrid'],
    },
  };
}

export const passkeyAssertion = (signature = 'sandbox-valid-passkey-signature', credentialId = 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM') => ({
  type: 'PASSKEY' as const,
  assertion: { credentialId, clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ', signature },
});

export const otpProof = (otp = '000000', clientPublicKey = CLIENT_KEY) => ({ type: 'EMAIL_OTP' as const, otp, clientPublicKey });

/** The wallet calls against a server: the shared target by default, or a test's own. */
export function walletCalls(serverBaseUrl = baseUrl, token: { clientId: string; clientSecret: string } = credentials) {
  const call = checkedCalls(serverBaseUrl, token);
  const id = (value: string) => encodeURIComponent(value);
  const calls = {
    call,
    /** A new customer's Embedded Wallet in `currency` (and a held account in that currency). */
    async newWallet(currency = 'USD'): Promise<{ customerId: string; walletId: string }> {
      const customer = await ok<Schemas['Customer']>(call('POST', '/customers', { customerType: 'INDIVIDUAL', currencies: [currency], embeddedWalletCurrencies: [currency] }), 201);
      const page = await ok<Schemas['InternalAccountListResponse']>(call('GET', `/customers/internal-accounts?customerId=${id(customer.id)}&type=EMBEDDED_WALLET`));
      const wallet = page.data[0];
      if (wallet === undefined) throw new Error('no wallet opened');
      return { customerId: customer.id, walletId: wallet.id };
    },
    addCredential: (body: unknown, headers: Record<string, string> = {}) => call('POST', '/auth/credentials', body, headers),
    listCredentials: (accountId: string) => ok<Schemas['AuthCredentialListResponse']>(call('GET', `/auth/credentials?accountId=${id(accountId)}`)),
    challenge: (credentialId: string, body?: unknown) => call('POST', `/auth/credentials/${id(credentialId)}/challenge`, body),
    verify: (credentialId: string, body: unknown, headers: Record<string, string> = {}) => call('POST', `/auth/credentials/${id(credentialId)}/verify`, body, headers),
    revokeCredential: (credentialId: string, headers: Record<string, string> = {}) => call('DELETE', `/auth/credentials/${id(credentialId)}`, undefined, headers),
    listSessions: (accountId: string, page: { limit?: number; cursor?: string } = {}) =>
      ok<SessionPage>(call('GET', `/auth/sessions?${new URLSearchParams({ accountId, ...(page.limit === undefined ? {} : { limit: String(page.limit) }), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) })}`)),
    revokeSession: (sessionId: string, headers: Record<string, string> = {}) => call('DELETE', `/auth/sessions/${id(sessionId)}`, undefined, headers),
    updateWallet: (accountId: string, body: unknown, headers: Record<string, string> = {}) => call('PATCH', `/internal-accounts/${id(accountId)}`, body, headers),
    exportWallet: (accountId: string, body: unknown, headers: Record<string, string> = {}) => call('POST', `/internal-accounts/${id(accountId)}/export`, body, headers),
    getAccount: (accountId: string) => call('GET', `/internal-accounts/${id(accountId)}`),
    /** What the sandbox e-mailed for a credential (a test control of the server). */
    async emails(credentialId: string): Promise<{ to: string; subject: string; text: string; sentAt: string }[]> {
      const res = await fetch(`${controlsOrigin(serverBaseUrl)}/__test/wallet-emails/${id(credentialId)}`);
      return ((await res.json()) as { data: { to: string; subject: string; text: string; sentAt: string }[] }).data;
    },
    /** A wallet with a first EMAIL_OTP credential and an open session of it. */
    async walletWithSession(currency = 'USD'): Promise<{ customerId: string; walletId: string; otp: AuthMethod; session: AuthSession }> {
      const wallet = await calls.newWallet(currency);
      const otp = await ok<AuthMethod>(calls.addCredential({ type: 'EMAIL_OTP', accountId: wallet.walletId, email: 'jane.doe@example.com' }), 201);
      const session = await ok<AuthSession>(calls.verify(otp.id, otpProof()));
      return { ...wallet, otp, session };
    },
    /** Runs a signed retry: the first call must answer 202, the signed repeat is returned. */
    async signedRetry(send: (headers: Record<string, string>) => Promise<Response>): Promise<Response> {
      const challenge = await ok<SignedRetryChallenge>(send({}), 202);
      return send(signed(challenge));
    },
  };
  return calls;
}

export const wallets = walletCalls();
