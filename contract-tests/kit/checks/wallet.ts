// Embedded Wallets with the sandbox's proof values (sandbox guide, Embedded Wallet guide): the first
// credential at once, a session from a proof, and the signed retry behind every wallet action:
// 202 with a challenge that changes nothing, then the identical request signed with
// `Service-Wallet-Signature` and its `Request-Id`, once.
import type { Check } from '../check.ts';
import type { components } from '../../../generated/openapi.js';
import { accountInfo, accountOf, balanceOf, externalAccount, fund, individual } from '../fixtures.ts';
import type { Reply } from '../http.ts';
import type { World } from '../world.ts';
import { check, enc } from './define.ts';

/** The wallet as AuthMethod and AuthSession name it: `EmbeddedWallet:` and the internal account's uuid (spec: AuthMethod.accountId). */
const walletName = (internalAccountId: string): string => internalAccountId.replace(/^InternalAccount:/, 'EmbeddedWallet:');

type Schemas = components['schemas'];
type Credential = Schemas['AuthMethod'];
type Session = Schemas['AuthSession'];
type Challenge = Schemas['SignedRetryChallenge'];

/** The sandbox's accepted values (sandbox guide). */
export const SANDBOX_SIGNATURE = 'sandbox-valid-signature';
export const SANDBOX_OTP = '000000';
export const SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';
export const CLIENT_KEY = '028254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a';
const GUIDE = 'Embedded Wallet guide: the signed retry';

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
export const passkeyBody = (accountId: string, challenge = 'c2FuZGJveC1yZWdpc3RyYXRpb24tY2hhbGxlbmdl') => ({
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
});
const passkeyAssertion = () => ({ type: 'PASSKEY', assertion: { credentialId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LM', clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ', signature: SANDBOX_PASSKEY_SIGNATURE } });
const otpProof = (otp = SANDBOX_OTP) => ({ type: 'EMAIL_OTP', otp, clientPublicKey: CLIENT_KEY });
const signed = (challenge: { requestId: string }, signature = SANDBOX_SIGNATURE) => ({ 'Service-Wallet-Signature': signature, 'Request-Id': challenge.requestId });

const addCredential = (t: World, body: unknown, headers: Record<string, string> = {}) => t.call('POST', '/auth/credentials', { body, headers, key: t.key() });
const verify = (t: World, credentialId: string, body: unknown, headers: Record<string, string> = {}) => t.call('POST', `/auth/credentials/${enc(credentialId)}/verify`, { body, headers });
const challengeOf = (t: World, credentialId: string, body?: unknown) => t.call('POST', `/auth/credentials/${enc(credentialId)}/challenge`, body === undefined ? {} : { body });
const credentials = async (t: World, accountId: string) => t.expect<{ data: Credential[] }>(await t.call('GET', '/auth/credentials', { query: { accountId } }), 200, 'listAuthCredentials answers 200').data;
const sessions = async (t: World, accountId: string) => t.expect<{ data: Session[] }>(await t.call('GET', '/auth/sessions', { query: { accountId } }), 200, 'listAuthSessions answers 200').data;
const updateWallet = (t: World, accountId: string, headers: Record<string, string> = {}) => t.call('PATCH', `/internal-accounts/${enc(accountId)}`, { body: { privateEnabled: true }, headers });
const reasonOf = (reply: Reply): unknown => (reply.body as { reason?: unknown } | undefined)?.reason;

/** A new customer's Embedded Wallet in USD. */
async function newWallet(t: World): Promise<{ customerId: string; walletId: string }> {
  const customer = await individual(t, { currencies: ['USD'], embeddedWalletCurrencies: ['USD'] });
  const page = t.expect<{ data: { id: string; type: string }[] }>(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } }), 200, 'listCustomerInternalAccounts answers 200');
  const wallet = page.data[0];
  t.is.ok(wallet !== undefined && wallet.type === 'EMBEDDED_WALLET', 'embeddedWalletCurrencies opens an EMBEDDED_WALLET account per currency (createCustomer)', 'an EMBEDDED_WALLET account', () => JSON.stringify(page.data));
  return { customerId: customer.id, walletId: wallet?.id ?? '' };
}

/** A wallet with its first EMAIL_OTP credential and a session opened with the sandbox code. */
async function walletWithSession(t: World) {
  const wallet = await newWallet(t);
  const otp = t.expect<Credential>(await addCredential(t, { type: 'EMAIL_OTP', accountId: wallet.walletId, email: 'jane.doe@example.com' }), 201, `the first credential is created at once: 201 (${GUIDE})`);
  const session = t.expect<Session>(await verify(t, otp.id, otpProof()), 200, `the sandbox code ${SANDBOX_OTP} opens a session (sandbox guide)`);
  return { ...wallet, otp, session };
}

/** The 202 of a wallet action: a challenge, and nothing changed yet. */
const challenged = (t: World, reply: Reply, what: string): Challenge => t.expect<Challenge>(reply, 202, `${what} answers 202 with a SignedRetryChallenge (${GUIDE})`);

export function walletChecks(): Check[] {
  const needs = ['state', 'sandbox'] as const;
  return [
    check('wallet.first-credential-and-session', { operations: ['createAuthCredential', 'verifyAuthCredential', 'listAuthCredentials', 'listAuthSessions'], status: 201, rule: `a wallet's first credential is created at once (201); the sandbox OTP ${SANDBOX_OTP} opens a 15-minute session, once; a wrong code is 401 "Invalid OTP code" (${GUIDE}; sandbox guide)`, needs: [...needs] }, async (t) => {
      const { walletId } = await newWallet(t);
      const otp = t.expect<Credential>(await addCredential(t, { type: 'EMAIL_OTP', accountId: walletId, email: 'jane.doe@example.com' }), 201, 'the first credential is created at once');
      t.is.contains(otp, { accountId: walletName(walletId), type: 'EMAIL_OTP' }, 'the credential is of the wallet, named EmbeddedWallet:<id> (spec: AuthMethod.accountId)');
      t.is.equal(await credentials(t, walletId), [otp], 'listAuthCredentials lists it');
      const wrong = await verify(t, otp.id, otpProof('123456'));
      t.expectError(wrong, 401, 'UNAUTHORIZED', 'a wrong code is refused');
      t.is.equal(reasonOf(wrong), 'Invalid OTP code', 'a wrong code says "Invalid OTP code" (SignedRetryChallenge reasons)', wrong);
      const session = t.expect<Session>(await verify(t, otp.id, otpProof()), 200, `the sandbox code ${SANDBOX_OTP} is accepted`);
      t.is.contains(session, { credentialId: otp.id, accountId: walletName(walletId), type: 'EMAIL_OTP' }, 'the session is of the credential');
      t.is.equal(Date.parse(session.expiresAt) - Date.parse(session.createdAt), 15 * 60_000, 'a session lasts 15 minutes');
      t.is.equal(reasonOf(await verify(t, otp.id, otpProof())), 'Invalid OTP code', 'a code opens one session');
      t.is.equal((await sessions(t, walletId)).map((s) => s.id), [session.id], 'listAuthSessions lists the session');
    }),

    check('wallet.signed-retry.credential', { operations: ['createAuthCredential'], status: 202, rule: `a further credential needs the signed retry: 202 changes nothing; a retry without the signature, with another, or with an unknown Request-Id is 401; the identical signed request is 201 (${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId } = await walletWithSession(t);
      const body = passkeyBody(walletId);
      const challenge = challenged(t, await addCredential(t, body), 'adding a second credential');
      t.is.contains(challenge, { type: 'EMAIL_OTP' }, 'the challenge names the session type that signs it');
      t.is.contains(JSON.parse(challenge.payloadToSign), { requestId: challenge.requestId, operation: 'createAuthCredential', accountId: walletId }, 'payloadToSign names the request, the operation and the wallet (spec: SignedRetryChallenge)');
      t.is.equal((await credentials(t, walletId)).length, 1, 'the 202 changed nothing');
      t.expectError(await addCredential(t, body, { 'Service-Wallet-Signature': SANDBOX_SIGNATURE }), 401, 'REQUEST_ID_MISSING', 'a signature needs its Request-Id');
      const noSignature = await addCredential(t, body, { 'Request-Id': challenge.requestId });
      t.is.equal(reasonOf(noSignature), 'Missing Service-Wallet-Signature', 'a Request-Id without a signature says so', noSignature);
      const forged = await addCredential(t, body, signed(challenge, 'forged'));
      t.expectError(forged, 401, 'UNAUTHORIZED', 'a wrong signature is refused');
      t.is.equal(reasonOf(forged), 'Invalid Service-Wallet-Signature', 'a wrong signature says so', forged);
      t.expectError(await addCredential(t, body, signed({ requestId: '019542f5-b3e7-1d02-0000-00000000beef' })), 401, 'REQUEST_ID_INVALID', 'an unknown Request-Id');
      const done = t.expect<Credential>(await addCredential(t, body, signed(challenge)), 201, 'the identical signed request is 201');
      t.is.contains(done, { type: 'PASSKEY', accountId: walletName(walletId) }, 'the passkey is added');
      t.is.equal((await credentials(t, walletId)).length, 2, 'the wallet has its second credential');
    }),

    check('wallet.signed-retry.update', { operations: ['updateInternalAccount', 'getInternalAccount'], status: 202, rule: `PATCH privateEnabled answers 202 and changes nothing; the signed retry answers the updated account; a Request-Id authorizes one request (401 REQUEST_ID_REUSED) (${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId } = await walletWithSession(t);
      const challenge = challenged(t, await updateWallet(t, walletId), 'PATCH /internal-accounts/{accountId}');
      t.is.equal(t.expect<{ privateEnabled?: boolean }>(await t.call('GET', `/internal-accounts/${enc(walletId)}`), 200, 'getInternalAccount answers 200').privateEnabled, false, 'the 202 changed nothing');
      const updated = t.expect<{ id: string; privateEnabled: boolean }>(await updateWallet(t, walletId, signed(challenge)), 200, 'the signed retry answers 200 with the account');
      t.is.contains(updated, { id: walletId, privateEnabled: true }, 'the wallet is updated');
      const again = await updateWallet(t, walletId, signed(challenge));
      t.expectError(again, 401, 'REQUEST_ID_REUSED', 'a Request-Id authorizes one request');
    }),

    check('wallet.signed-retry.export', { operations: ['exportInternalAccount'], status: 202, rule: `export is a signed retry: 202, then the sealed credentials; a wallet without a credential cannot sign: 400 NO_WALLET_CREDENTIAL (${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId } = await walletWithSession(t);
      const exportWallet = (headers: Record<string, string> = {}) => t.call('POST', `/internal-accounts/${enc(walletId)}/export`, { body: { clientPublicKey: CLIENT_KEY }, headers });
      const challenge = challenged(t, await exportWallet(), 'an export');
      const exported = t.expect<{ id: string; encryptedWalletCredentials: string }>(await exportWallet(signed(challenge)), 200, 'the signed export answers 200');
      t.is.equal(exported.id, walletId, 'the export is of the wallet');
      const bare = await newWallet(t);
      t.expectError(await t.call('POST', `/internal-accounts/${enc(bare.walletId)}/export`, { body: { clientPublicKey: CLIENT_KEY } }), 400, 'NO_WALLET_CREDENTIAL', 'a wallet without a credential cannot sign');
    }),

    check('wallet.sessions.revoke', { operations: ['revokeAuthSession', 'listAuthSessions'], status: 204, rule: `revoking a session is a signed retry (202, then 204); a revoked session signs nothing: 401 "No active session" (${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId, session } = await walletWithSession(t);
      const pending = challenged(t, await updateWallet(t, walletId), 'PATCH /internal-accounts/{accountId}');
      const revoke = (headers: Record<string, string> = {}) => t.call('DELETE', `/auth/sessions/${enc(session.id)}`, { headers });
      const challenge = challenged(t, await revoke(), 'revoking a session');
      t.expect(await revoke(signed(challenge)), 204, 'the signed revocation answers 204');
      t.is.equal(await sessions(t, walletId), [], 'the session is gone');
      const refused = await updateWallet(t, walletId, signed(pending));
      t.expectError(refused, 401, 'UNAUTHORIZED', 'a revoked session authorizes nothing');
      t.is.equal(reasonOf(refused), 'No active session', 'without a session the retry says "No active session"', refused);
    }),

    check('wallet.credentials.revoke', { operations: ['revokeAuthCredential', 'challengeAuthCredential', 'verifyAuthCredential'], status: 204, rule: `the last credential cannot be revoked (400 LAST_CREDENTIAL); a credential's revocation is signed by a session of another credential (400 SAME_CREDENTIAL_SESSION otherwise) and revokes its sessions (${GUIDE}; sandbox passkey value)`, needs: [...needs] }, async (t) => {
      const { walletId, otp, session } = await walletWithSession(t);
      t.expectError(await t.call('DELETE', `/auth/credentials/${enc(otp.id)}`), 400, 'LAST_CREDENTIAL', 'a wallet keeps at least one credential');
      const addPasskey = challenged(t, await addCredential(t, passkeyBody(walletId)), 'adding a passkey');
      const passkey = t.expect<Credential>(await addCredential(t, passkeyBody(walletId), signed(addPasskey)), 201, 'the signed passkey is added');
      const revoke = (headers: Record<string, string> = {}) => t.call('DELETE', `/auth/credentials/${enc(otp.id)}`, { headers });
      const challenge = challenged(t, await revoke(), 'revoking a credential');
      t.expectError(await revoke(signed(challenge)), 400, 'SAME_CREDENTIAL_SESSION', "a credential's own session does not sign its revocation");
      const passkeyChallenge = t.expect<{ requestId: string; type: string }>(await challengeOf(t, passkey.id, { clientPublicKey: CLIENT_KEY }), 200, 'challengeAuthCredential answers 200 for a passkey');
      t.expect(await verify(t, passkey.id, passkeyAssertion(), { 'Request-Id': passkeyChallenge.requestId }), 200, `the sandbox passkey signature ${SANDBOX_PASSKEY_SIGNATURE} opens a session (sandbox guide)`);
      t.expect(await revoke(signed(challenge)), 204, "a session of the other credential signs the revocation: 204");
      t.is.equal((await credentials(t, walletId)).map((c) => c.id), [passkey.id], 'the revoked credential is gone');
      t.is.ok(!(await sessions(t, walletId)).some((s) => s.id === session.id), "a revoked credential's sessions are revoked", 'no session of it', () => 'its session');
    }),

    check('wallet.quote.signed-execution', { operations: ['createQuote', 'executeQuote'], status: 200, rule: `a quote from an Embedded Wallet is executed with the session's signature over its payloadToSign, once: without it 401 "Missing Service-Wallet-Signature"; immediatelyExecute is 400 IMMEDIATE_EXECUTION_NOT_SUPPORTED (${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId, customerId } = await walletWithSession(t);
      await fund(t, walletId, 10_000);
      t.expect(await t.call('PATCH', `/customers/${enc(customerId)}`, { body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR'] } }), 200, 'updateCustomer answers 200');
      const eur = await accountOf(t, customerId, 'EUR');
      const body = { source: { sourceType: 'ACCOUNT', accountId: walletId }, destination: { destinationType: 'ACCOUNT', accountId: eur.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 };
      t.expectError(await t.call('POST', '/quotes', { body: { ...body, immediatelyExecute: true }, key: t.key() }), 400, 'IMMEDIATE_EXECUTION_NOT_SUPPORTED', 'a wallet quote waits for its signature');
      const quote = t.expect<Schemas['Quote']>(await t.call('POST', '/quotes', { body, key: t.key() }), 201, 'createQuote answers 201');
      const payload = JSON.parse(quote.payloadToSign ?? '{}') as { requestId?: string; operation?: string };
      t.is.contains(payload, { operation: 'executeQuote', accountId: walletId, quoteId: quote.id }, 'a wallet quote carries the payload to sign (Quote.payloadToSign)');
      const execute = (headers: Record<string, string>) => t.call('POST', `/quotes/${enc(quote.id)}/execute`, { headers, key: t.key() });
      const unsigned = await execute({});
      t.expectError(unsigned, 401, 'UNAUTHORIZED', 'a wallet quote needs the signature');
      t.is.equal(reasonOf(unsigned), 'Missing Service-Wallet-Signature', 'without the signature it says so', unsigned);
      t.is.equal(await balanceOf(t, walletId), 10_000, 'a refused execution moves nothing');
      t.expect(await execute(signed({ requestId: payload.requestId ?? '' })), 200, 'the signed execution answers 200');
      t.is.equal(await balanceOf(t, walletId), 9_000, 'the wallet is debited once');
    }),

    check('wallet.transfer-out.signed', { operations: ['createTransferOut'], status: 202, rule: `a transfer-out from an Embedded Wallet needs a session signature from the customer's device: 202 SignedRetryChallenge that moves nothing, then the identical request signed answers 201, once; the same Request-Id again is 401 REQUEST_ID_REUSED (spec: InternalAccount.type EMBEDDED_WALLET; ${GUIDE})`, needs: [...needs] }, async (t) => {
      const { walletId, customerId } = await walletWithSession(t);
      await fund(t, walletId, 10_000);
      const bank = await externalAccount(t, customerId, 'USD', accountInfo.usd());
      const key = t.key();
      const send = (headers: Record<string, string> = {}) => t.call('POST', '/transfer-out', { body: { source: { accountId: walletId }, destination: { accountId: bank.id }, amount: 2_500 }, headers, key });
      const challenge = challenged(t, await send(), 'createTransferOut from an Embedded Wallet');
      t.is.contains(JSON.parse(challenge.payloadToSign), { requestId: challenge.requestId, operation: 'createTransferOut' }, 'payloadToSign names the request and the operation (spec: SignedRetryChallenge)');
      t.is.equal(await balanceOf(t, walletId), 10_000, 'the 202 moves nothing');
      const made = t.expect<Schemas['Transaction']>(await send(signed(challenge)), 201, 'the signed retry, under the same Idempotency-Key, answers 201');
      t.is.contains(made, { type: 'OUTGOING' }, 'it is an outgoing payment');
      t.is.equal(await balanceOf(t, walletId), 7_500, 'the wallet is debited once');
      const again = await t.call('POST', '/transfer-out', { body: { source: { accountId: walletId }, destination: { accountId: bank.id }, amount: 2_500 }, headers: signed(challenge), key: t.key() });
      t.expectError(again, 401, 'REQUEST_ID_REUSED', 'a spent Request-Id is refused, whatever else the request says');
      t.is.equal(await balanceOf(t, walletId), 7_500, 'a refused retry moves nothing');
    }),
  ];
}
