// Embedded Wallets on the shared target: how wallets are opened and named, credentials (first one
// at once, further ones by signed retry, one per type, the last one kept), the proofs of each
// type with the sandbox's magic values, sessions, and the one signed-retry mechanism behind every
// wallet action (credentials, sessions, settings, export, transfer-out, quote execution). Rules
// that need the clock to move are in server/embedded-wallet-time.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, inject } from 'vitest';
import { api, describeServer, errorOf, isMock, itPostgres, itServer } from '../support/api.ts';
import { createExternalAccount, customerInternalAccount, fund, balanceOf, listTransactions } from '../support/factories.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createQuote, executeQuote, ok, postQuote } from '../support/quotes.ts';
import { connectAgent } from '../support/agents.ts';
import {
  CLIENT_KEY,
  oidcToken,
  otpProof,
  passkeyAssertion,
  passkeyBody,
  signed,
  SIGNATURE,
  wallets as w,
  type AuthMethod,
  type AuthSession,
  type SignedRetryChallenge,
} from '../support/wallets.ts';

const uuidOf = (id: string) => id.slice(id.indexOf(':') + 1);
/** The shared server's clock (tests may have moved it), for the age of OIDC tokens. */
const serverNow = async (): Promise<number> => {
  const res = await fetch(`${inject('origin')}/__test/clock`);
  return Date.parse(((await res.json()) as { now: string }).now);
};
const freshToken = async (claims: Record<string, unknown> = {}) =>
  oidcToken({ iss: 'https://accounts.google.com', sub: '109876543210', email: 'jane.doe@example.com', iat: Math.floor((await serverNow()) / 1000), ...claims });

const reasonOf = async (res: Response) => {
  const body = await errorOf(res);
  return { status: res.status, code: body.code, reason: body.reason };
};

describeServer('opening and naming Embedded Wallets', () => {
  itServer('embeddedWalletCurrencies opens one EMBEDDED_WALLET account per currency; an update adds, never drops', async () => {
    const customer = await ok<{ id: string; embeddedWalletCurrencies: string[] }>(
      w.call('POST', '/customers', { customerType: 'INDIVIDUAL', currencies: ['USD'], embeddedWalletCurrencies: ['USD', 'EUR'] }),
      201,
    );
    expect(customer.embeddedWalletCurrencies).toEqual(['USD', 'EUR']);
    const list = async () =>
      (await ok<{ data: { type: string; currency?: unknown; balance: { currency: { code: string } }; privateEnabled?: boolean }[] }>(w.call('GET', `/customers/internal-accounts?customerId=${customer.id}&type=EMBEDDED_WALLET`))).data;
    const opened = await list();
    expect(opened.map((a) => a.balance.currency.code).sort()).toEqual(['EUR', 'USD']);
    expect(opened.every((a) => a.type === 'EMBEDDED_WALLET' && a.privateEnabled === false)).toBe(true);
    // The held USD account is still there, apart from the wallet.
    expect((await customerInternalAccount(customer.id, 'USD')).id).toBeDefined();

    const patch = (embeddedWalletCurrencies: string[]) => w.call('PATCH', `/customers/${customer.id}`, { customerType: 'INDIVIDUAL', embeddedWalletCurrencies });
    expect((await ok<{ embeddedWalletCurrencies: string[] }>(patch(['USD', 'EUR', 'BTC']))).embeddedWalletCurrencies).toEqual(['USD', 'EUR', 'BTC']);
    expect((await list()).length).toBe(3);
    const dropped = await patch(['USD']);
    expect(dropped.status).toBe(400);
    expect((await errorOf(dropped)).details?.errors?.[0]?.field).toBe('/embeddedWalletCurrencies');
    const unknown = await w.call('POST', '/customers', { customerType: 'INDIVIDUAL', embeddedWalletCurrencies: ['XXX'] });
    expect(unknown.status).toBe(400);
  });

  itServer('credentials and sessions name the wallet EmbeddedWallet:<uuid>; requests may name it either way', async () => {
    const { customerId, walletId } = await w.newWallet();
    const alias = `EmbeddedWallet:${uuidOf(walletId)}`;
    const account = await ok<{ id: string }>(w.getAccount(alias));
    expect(account.id).toBe(walletId);
    const credential = await ok<AuthMethod>(w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }), 201);
    expect(credential.accountId).toBe(alias);
    const session = await ok<AuthSession>(w.verify(credential.id, otpProof()));
    expect(session.accountId).toBe(alias);
    for (const name of [alias, walletId]) {
      expect((await w.listCredentials(name)).data).toEqual([credential]);
      expect((await w.listSessions(name)).data.map((s) => [s.id, s.accountId])).toEqual([[session.id, alias]]);
    }
    const passkey = await ok<AuthMethod>(await w.signedRetry((headers) => w.addCredential(passkeyBody(alias), headers)), 201);
    expect(passkey.accountId).toBe(alias);
    // The alias names wallets only: a held account's uuid behind it is not found.
    const held = await customerInternalAccount(customerId, 'USD');
    expect((await w.getAccount(`EmbeddedWallet:${uuidOf(held.id)}`)).status).toBe(404);
  });

  itServer('another kind of internal account has no credentials, sessions or wallet settings: 400 NOT_AN_EMBEDDED_WALLET', async () => {
    const { customerId } = await w.newWallet();
    const held = (await customerInternalAccount(customerId, 'USD')).id;
    const refused = [
      await w.addCredential({ type: 'EMAIL_OTP', accountId: held, email: 'jane@example.com' }),
      await w.call('GET', `/auth/credentials?accountId=${held}`),
      await w.call('GET', `/auth/sessions?accountId=${held}`),
      await w.updateWallet(held, { privateEnabled: true }),
      await w.exportWallet(held, { clientPublicKey: CLIENT_KEY }),
    ];
    for (const res of refused) expect(await reasonOf(res)).toMatchObject({ status: 400, code: 'NOT_AN_EMBEDDED_WALLET' });
    const missing = await w.addCredential({ type: 'EMAIL_OTP', accountId: 'InternalAccount:019542f5-b3e7-1d02-0000-00000000dead', email: 'jane@example.com' });
    expect(missing.status).toBe(404);
  });

});

describeServer('transfer-out from an Embedded Wallet: a signed retry', () => {
  /** A wallet with a session, funded, and a USD bank account of its owner. */
  async function payout(funding: number) {
    const wallet = await w.walletWithSession();
    await fund(wallet.walletId, funding);
    const external = await createExternalAccount({ customerId: wallet.customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() });
    const body = (amount: number) => ({ source: { accountId: wallet.walletId }, destination: { accountId: external.id }, amount });
    const send = (amount: number, headers: Record<string, string> = {}) => w.call('POST', '/transfer-out', body(amount), headers);
    const sent = async () => (await listTransactions({ accountId: external.id })).totalCount;
    return { ...wallet, external: external.id, send, sent };
  }

  itServer('202 changes nothing; the identical request signed by a session sends it (201); its requestId is then spent', async () => {
    const p = await payout(5_000);
    const challenge = await ok<SignedRetryChallenge>(p.send(1_200), 202);
    expect(challenge.type).toBe('EMAIL_OTP');
    expect(JSON.parse(challenge.payloadToSign)).toEqual({
      requestId: challenge.requestId,
      operation: 'createTransferOut',
      accountId: p.walletId,
      amount: 1_200,
      currency: 'USD',
      destinationAccountId: p.external,
      bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await balanceOf(p.walletId)).toBe(5_000);
    expect(await p.sent()).toBe(0);

    expect(await reasonOf(await p.send(1_200, signed(challenge, 'forged')))).toMatchObject({ status: 401, reason: 'Invalid Service-Wallet-Signature' });
    expect(await reasonOf(await p.send(1_300, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID', reason: 'Request-Id issued for another request' });
    expect(await balanceOf(p.walletId)).toBe(5_000);

    const tx = await ok<{ id: string; type: string; status: string; source: { accountId: string } }>(p.send(1_200, signed(challenge)), 201);
    expect(tx).toMatchObject({ type: 'OUTGOING', status: 'COMPLETED', source: { accountId: p.walletId } });
    expect(await balanceOf(p.walletId)).toBe(3_800);
    expect(await reasonOf(await p.send(1_200, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    expect(await p.sent()).toBe(1);
  });

  itServer('a transfer bound to fail gets no challenge; a signed retry that fails spends nothing and is sent again', async () => {
    const p = await payout(1_000);
    expect(await reasonOf(await p.send(2_000))).toMatchObject({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    await fund(p.walletId, 1_500);
    const challenge = await ok<SignedRetryChallenge>(p.send(2_000), 202);
    // Meanwhile another signed transfer leaves less than the first one's amount.
    await ok(await w.signedRetry((headers) => p.send(1_000, headers)), 201);
    expect(await reasonOf(await p.send(2_000, signed(challenge)))).toMatchObject({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    await fund(p.walletId, 1_000);
    await ok(p.send(2_000, signed(challenge)), 201);
    expect(await balanceOf(p.walletId)).toBe(500);
    expect(await p.sent()).toBe(2);
  });

  itServer("a signed retry whose request changed is refused whole (401 REQUEST_ID_INVALID) before the operation judges it", async () => {
    const p = await payout(1_000);
    const challenge = await ok<SignedRetryChallenge>(p.send(600), 202);
    const anotherRequest = { status: 401, code: 'REQUEST_ID_INVALID', reason: 'Request-Id issued for another request' };
    // Changed so the operation alone would answer 400 INSUFFICIENT_FUNDS, then 404 EXTERNAL_ACCOUNT_NOT_FOUND.
    expect(await reasonOf(await p.send(5_000, signed(challenge)))).toMatchObject(anotherRequest);
    const unknownDestination = { source: { accountId: p.walletId }, destination: { accountId: 'ExternalAccount:019542f5-b3e7-1d02-0000-00000000dead' }, amount: 600 };
    expect(await reasonOf(await w.call('POST', '/transfer-out', unknownDestination, signed(challenge)))).toMatchObject(anotherRequest);
    // A session's revocation signed for one session, presented for an unknown one (404 SESSION_NOT_FOUND alone).
    const revocation = await ok<SignedRetryChallenge>(w.revokeSession(p.session.id), 202);
    expect(await reasonOf(await w.revokeSession('019542f5-b3e7-1d02-0000-00000000dead', signed(revocation)))).toMatchObject(anotherRequest);
    // Nothing was spent: the unchanged request still goes through.
    await ok(p.send(600, signed(challenge)), 201);
    expect(await balanceOf(p.walletId)).toBe(400);
  });

  itServer('Idempotency-Key: the 202 and a 401 are not stored; the signed retry is, and replays for either call', async () => {
    const p = await payout(5_000);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await p.send(1_000, key);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const challenge = await ok<SignedRetryChallenge>(first, 202);
    const again = await ok<SignedRetryChallenge>(p.send(1_000, key), 202);
    expect(again.requestId).not.toBe(challenge.requestId);
    expect((await p.send(1_000, { ...key, ...signed(challenge, 'forged') })).status).toBe(401);

    const done = await p.send(1_000, { ...key, ...signed(challenge) });
    expect(done.headers.get('idempotent-replayed')).toBeNull();
    const tx = await ok<{ id: string }>(done, 201);
    for (const headers of [signed(challenge), signed(again), {}]) {
      const replayed = await p.send(1_000, { ...key, ...headers });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect((await ok<{ id: string }>(replayed, 201)).id).toBe(tx.id);
    }
    expect((await p.send(2_000, { ...key, ...signed(again) })).status).toBe(422);
    expect(await balanceOf(p.walletId)).toBe(4_000);
    expect(await p.sent()).toBe(1);
  });

  itServer('an agent cannot send from a wallet (400); a held account ignores the signature headers', async () => {
    const p = await payout(5_000);
    const { via } = await connectAgent({}, p.customerId);
    const refused = await via.POST('/agents/me/transfer-out', { body: { source: { accountId: p.walletId }, destination: { accountId: p.external }, amount: 100 } });
    expect(refused.error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(await balanceOf(p.walletId)).toBe(5_000);

    const held = await customerInternalAccount(p.customerId, 'USD');
    await fund(held.id, 1_000);
    const res = await w.call('POST', '/transfer-out', { source: { accountId: held.id }, destination: { accountId: p.external }, amount: 100 }, signed({ requestId: 'Request:019542f5-b3e7-1d02-0000-00000000beef' }));
    expect(res.status).toBe(201);
  });
});

describeServer('credentials', () => {
  itServer('the first credential is created at once (201); the OTP e-mail goes to the outbox; the list is {data} only', async () => {
    const { walletId } = await w.newWallet();
    const res = await w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane.doe@example.com' });
    expect(res.status).toBe(201);
    const credential = (await res.json()) as AuthMethod;
    expect(credential).toMatchObject({ accountId: `EmbeddedWallet:${uuidOf(walletId)}`, type: 'EMAIL_OTP', nickname: 'jane.doe@example.com' });
    const emails = await w.emails(credential.id);
    expect(emails.length).toBe(1);
    expect(emails[0]).toMatchObject({ to: 'jane.doe@example.com' });
    expect(emails[0]?.text).toContain('000000');
    const list = await w.listCredentials(walletId);
    expect(Object.keys(list)).toEqual(['data']);
    expect(list.data).toEqual([credential]);
  });

  itServer('one credential per type: a second EMAIL_OTP, PASSKEY or OAUTH is 400 <TYPE>_CREDENTIAL_ALREADY_EXISTS, signed or not', async () => {
    const { walletId } = await w.walletWithSession();
    const again = await w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'other@example.com' });
    expect(await reasonOf(again)).toMatchObject({ status: 400, code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS' });
    const passkey = await w.signedRetry((headers) => w.addCredential(passkeyBody(walletId), headers));
    expect(passkey.status).toBe(201);
    const secondPasskey = await w.addCredential(passkeyBody(walletId));
    expect(await reasonOf(secondPasskey)).toMatchObject({ status: 400, code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
    // One token for both calls: the signed retry must repeat the challenged request exactly, and a
    // token made again could carry another iat (a second later on a busy machine).
    const oidcToken = await freshToken();
    const oauth = await w.signedRetry((headers) => w.addCredential({ type: 'OAUTH', accountId: walletId, oidcToken }, headers));
    expect(oauth.status).toBe(201);
    const secondOauth = await w.addCredential({ type: 'OAUTH', accountId: walletId, oidcToken: await freshToken({ sub: 'another' }) });
    expect(await reasonOf(secondOauth)).toMatchObject({ status: 400, code: 'OAUTH_CREDENTIAL_ALREADY_EXISTS' });
    expect((await w.listCredentials(walletId)).data.map((c) => c.type).sort()).toEqual(['EMAIL_OTP', 'OAUTH', 'PASSKEY']);
  });

  itServer('a further credential needs the signed retry: 202 changes nothing; the identical signed request is 201', async () => {
    const { walletId } = await w.walletWithSession();
    const body = passkeyBody(walletId);
    const first = await w.addCredential(body);
    expect(first.status).toBe(202);
    const challenge = (await first.json()) as SignedRetryChallenge;
    expect(challenge.type).toBe('EMAIL_OTP');
    expect(Date.parse(challenge.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    const payload = JSON.parse(challenge.payloadToSign) as Record<string, unknown>;
    expect(payload).toMatchObject({ requestId: challenge.requestId, operation: 'createAuthCredential', accountId: walletId });
    expect(payload.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await w.listCredentials(walletId)).data.length).toBe(1);

    // Each malformed retry is refused and leaves the request usable.
    expect(await reasonOf(await w.addCredential(body, { 'Service-Wallet-Signature': 'sandbox-valid-signature' }))).toMatchObject({ status: 401, code: 'REQUEST_ID_MISSING' });
    expect(await reasonOf(await w.addCredential(body, { 'Request-Id': challenge.requestId }))).toMatchObject({ status: 401, reason: 'Missing Service-Wallet-Signature' });
    expect(await reasonOf(await w.addCredential(body, signed(challenge, 'forged')))).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid Service-Wallet-Signature' });
    expect(await reasonOf(await w.addCredential({ ...body, nickname: 'Another phone' }, signed(challenge)))).toMatchObject({
      status: 401,
      code: 'REQUEST_ID_INVALID',
      reason: 'Request-Id issued for another request',
    });
    expect(await reasonOf(await w.addCredential(body, signed({ requestId: '019542f5-b3e7-1d02-0000-00000000beef' })))).toMatchObject({
      status: 401,
      code: 'REQUEST_ID_INVALID',
      reason: 'Unknown or expired Request-Id',
    });
    expect((await w.listCredentials(walletId)).data.length).toBe(1);

    const done = await w.addCredential(body, signed(challenge));
    expect(done.status).toBe(201);
    expect((await done.json()) as AuthMethod).toMatchObject({ type: 'PASSKEY', nickname: "Jane's iPhone", accountId: `EmbeddedWallet:${uuidOf(walletId)}` });
    // Repeated, it adds nothing: the retry spent its requestId, checked before the credential types.
    expect(await reasonOf(await w.addCredential(body, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED', reason: 'Request-Id already used' });
    expect(await reasonOf(await w.addCredential(body, { 'Request-Id': challenge.requestId }))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    expect(await reasonOf(await w.addCredential(body))).toMatchObject({ status: 400, code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
    expect((await w.listCredentials(walletId)).data.length).toBe(2);
  });

  itServer('an EMAIL_OTP credential added by signed retry e-mails its code on the retry, not on the 202', async () => {
    const { walletId } = await w.newWallet();
    const passkey = await ok<AuthMethod>(w.addCredential(passkeyBody(walletId)), 201);
    const passkeyChallenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    await ok<AuthSession>(w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': passkeyChallenge.requestId }));
    const body = { type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' };
    const challenge = await ok<SignedRetryChallenge>(w.addCredential(body), 202);
    expect(challenge.type).toBe('PASSKEY');
    const otp = await ok<AuthMethod>(w.addCredential(body, signed(challenge)), 201);
    const emails = await w.emails(otp.id);
    expect(emails.map((e) => e.to)).toEqual(['jane@example.com']);
    expect(Date.parse(emails[0]?.sentAt ?? '')).toBeGreaterThanOrEqual(Date.parse(otp.createdAt));
    expect((await w.verify(otp.id, otpProof())).status).toBe(200);
  });

  itServer('a requestId is bound to its operation: the one of a credential cannot authorize a wallet update', async () => {
    const { walletId } = await w.walletWithSession();
    const challenge = await ok<SignedRetryChallenge>(w.addCredential(passkeyBody(walletId)), 202);
    const misused = await w.updateWallet(walletId, { privateEnabled: true }, signed(challenge));
    expect(await reasonOf(misused)).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID' });
  });

  itServer('OAUTH: creation takes a JWT with a recognised iss, sub, email and a fresh iat; the nickname is its email', async () => {
    const { walletId } = await w.newWallet();
    const create = (oidcToken: string) => w.addCredential({ type: 'OAUTH', accountId: walletId, oidcToken });
    const now = Math.floor((await serverNow()) / 1000);
    for (const claims of [{ iss: 'https://evil.example.com' }, { iat: now - 120 }, { email: undefined }, { sub: '' }]) {
      const res = await create(await freshToken(claims));
      expect(await reasonOf(res)).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid OIDC token' });
    }
    // The magic value is for /verify; creation needs a JWT (a schema pattern: 400).
    expect((await create('sandbox-valid-oidc-token')).status).toBe(400);
    const credential = await ok<AuthMethod>(create(await freshToken({ email: 'jane@gmail.example.com' })), 201);
    expect(credential).toMatchObject({ type: 'OAUTH', nickname: 'jane@gmail.example.com' });
    // OAUTH has no challenge step; /verify takes the magic token.
    expect((await w.challenge(credential.id)).status).toBe(400);
    expect(await reasonOf(await w.verify(credential.id, { type: 'OAUTH', oidcToken: await freshToken(), clientPublicKey: CLIENT_KEY }))).toMatchObject({
      status: 401,
      reason: 'Invalid OIDC token',
    });
    const session = await ok<AuthSession>(w.verify(credential.id, { type: 'OAUTH', oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: CLIENT_KEY }));
    expect(session).toMatchObject({ credentialId: credential.id, accountId: `EmbeddedWallet:${uuidOf(walletId)}`, type: 'OAUTH' });
  });

  itServer('PASSKEY: registration must answer the top-level challenge; transports are the W3C values', async () => {
    const { walletId } = await w.newWallet();
    const mismatch = await w.addCredential(passkeyBody(walletId, 'c2FuZGJveC1yZWdpc3RyYXRpb24tY2hhbGxlbmdl', 'YW5vdGhlci1jaGFsbGVuZ2UtdmFsdWU'));
    expect(await reasonOf(mismatch)).toMatchObject({ status: 401, reason: 'Invalid passkey attestation' });
    const upper = { ...passkeyBody(walletId), attestation: { ...passkeyBody(walletId).attestation, transports: ['INTERNAL'] } };
    expect((await w.addCredential(upper)).status).toBe(400);
    expect((await w.addCredential(passkeyBody(walletId))).status).toBe(201);
  });
});

describeServer('challenge, verify and sessions', () => {
  itServer('EMAIL_OTP: a wrong code is 401 "Invalid OTP code"; a code opens one session; /challenge e-mails a new one', async () => {
    const { walletId } = await w.newWallet();
    const credential = await ok<AuthMethod>(w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }), 201);
    expect(await reasonOf(await w.verify(credential.id, otpProof('123456')))).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
    const session = await ok<AuthSession>(w.verify(credential.id, otpProof()));
    expect(session).toMatchObject({ credentialId: credential.id, accountId: `EmbeddedWallet:${uuidOf(walletId)}`, type: 'EMAIL_OTP' });
    expect(session.encryptedSessionSigningKey).toMatch(/^[0-9a-f]+$/);
    expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(15 * 60_000);
    // Used up: the next session needs a new code.
    expect(await reasonOf(await w.verify(credential.id, otpProof()))).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    const challenged = await ok<AuthMethod>(w.challenge(credential.id));
    expect(challenged).toEqual(credential);
    expect((await w.emails(credential.id)).length).toBe(2);
    await ok<AuthSession>(w.verify(credential.id, otpProof()));
    const sessions = await w.listSessions(walletId);
    expect(sessions).toMatchObject({ hasMore: false, totalCount: 2 });
    expect(sessions.data.length).toBe(2);
    expect(sessions.data.every((s) => s.encryptedSessionSigningKey === undefined)).toBe(true);
    // The wrong type for the credential, or a clientPublicKey on an EMAIL_OTP challenge, is 400.
    expect((await w.verify(credential.id, { type: 'OAUTH', oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: CLIENT_KEY })).status).toBe(400);
  });

  itServer('a wrong proof is 401 with its reason whatever its shape; only an otp that is not six digits is 400', async () => {
    // Each the first credential of a new wallet: created at once, with failures counted apart.
    const first = async (body: (walletId: string) => unknown) => ok<AuthMethod>(w.addCredential(await body((await w.newWallet()).walletId)), 201);
    const oauth = await first(async (walletId) => ({ type: 'OAUTH', accountId: walletId, oidcToken: await freshToken() }));
    for (const oidcToken of ['not a JWT, not the magic value', '']) {
      expect(await reasonOf(await w.verify(oauth.id, { type: 'OAUTH', oidcToken, clientPublicKey: CLIENT_KEY }))).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid OIDC token' });
    }
    const passkey = await first((walletId) => passkeyBody(walletId));
    const challenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion('not base64url: +/!'), { 'Request-Id': challenge.requestId }))).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: 'Invalid passkey signature',
    });
    const otp = await first((walletId) => ({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }));
    expect(await reasonOf(await w.verify(otp.id, otpProof('12345')))).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(await reasonOf(await w.verify(otp.id, otpProof('123456')))).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
  });

  itServer('PASSKEY: clientPublicKey only on /challenge; verify with the challenge requestId, single use', async () => {
    const { walletId } = await w.newWallet();
    const passkey = await ok<AuthMethod>(w.addCredential(passkeyBody(walletId)), 201);
    expect((await w.challenge(passkey.id)).status).toBe(400);
    const challenge = await ok<{ type: string; credentialId: string; challenge: string; requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    expect(challenge).toMatchObject({ type: 'PASSKEY', credentialId: passkey.id });
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    // Too soon for another challenge: 429 with Retry-After.
    const again = await w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(30);

    expect((await w.verify(passkey.id, passkeyAssertion())).status).toBe(400); // no Request-Id
    expect((await w.verify(passkey.id, { ...passkeyAssertion(), clientPublicKey: CLIENT_KEY }, { 'Request-Id': challenge.requestId })).status).toBe(400);
    expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion('bad-signature'), { 'Request-Id': challenge.requestId }))).toMatchObject({
      status: 401,
      reason: 'Invalid passkey signature',
    });
    expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion(undefined, 'AnotherCredentialId0000'), { 'Request-Id': challenge.requestId }))).toMatchObject({
      status: 401,
      reason: 'Invalid passkey signature',
    });
    const session = await ok<AuthSession>(w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': challenge.requestId }));
    expect(session).toMatchObject({ type: 'PASSKEY', credentialId: passkey.id });
    expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': challenge.requestId }))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
  });

  itServer('a revoked session authorizes nothing; revoking a session is itself a signed retry (204)', async () => {
    const { walletId, session } = await w.walletWithSession();
    const pending = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    const challenge = await ok<SignedRetryChallenge>(w.revokeSession(session.id), 202);
    expect((await w.revokeSession(session.id, signed(challenge))).status).toBe(204);
    expect((await w.listSessions(walletId)).data).toEqual([]);
    expect((await w.revokeSession(session.id)).status).toBe(404);
    // Sent again, the retry finds its requestId spent before it looks for the session.
    expect(await reasonOf(await w.revokeSession(session.id, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    const refused = await w.updateWallet(walletId, { privateEnabled: true }, signed(pending));
    expect(await reasonOf(refused)).toMatchObject({ status: 401, reason: 'No active session' });
  });
});

describeServer('listing sessions', () => {
  itServer('GET /auth/sessions pages like every list: past 100 sessions, with limit, cursor, hasMore and totalCount', async () => {
    // OAUTH verifies without a challenge step: 102 sessions in a row.
    const { walletId } = await w.newWallet();
    const credential = await ok<AuthMethod>(w.addCredential({ type: 'OAUTH', accountId: walletId, oidcToken: await freshToken() }), 201);
    const opened: string[] = [];
    for (let i = 0; i < 102; i++) opened.push((await ok<AuthSession>(w.verify(credential.id, { type: 'OAUTH', oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: CLIENT_KEY }))).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await w.listSessions(walletId, { limit: 40, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.totalCount).toBe(102);
      seen.push(...page.data.map((s) => s.id));
      cursor = page.hasMore ? page.nextCursor : undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual([...opened].reverse());
    const first = await w.listSessions(walletId);
    expect(first).toMatchObject({ hasMore: true, totalCount: 102 });
    expect(first.data).toHaveLength(20);
    expect((await reasonOf(await w.call('GET', `/auth/sessions?accountId=${walletId}&limit=101`))).status).toBe(400);
  });
});

describeServer('revoking credentials', () => {
  itServer('the last credential cannot be revoked (400 LAST_CREDENTIAL)', async () => {
    const { otp } = await w.walletWithSession();
    expect(await reasonOf(await w.revokeCredential(otp.id))).toMatchObject({ status: 400, code: 'LAST_CREDENTIAL' });
  });

  itServer('only a session of another credential signs the revocation; it revokes the credential and its sessions', async () => {
    const { walletId, otp, session } = await w.walletWithSession();
    const passkey = await ok<AuthMethod>(await w.signedRetry((headers) => w.addCredential(passkeyBody(walletId), headers)), 201);
    const challenge = await ok<SignedRetryChallenge>(w.revokeCredential(otp.id), 202);
    expect(challenge.type).toBe('PASSKEY');
    expect(JSON.parse(challenge.payloadToSign)).toMatchObject({ operation: 'revokeAuthCredential', credentialId: otp.id, accountId: walletId });
    // The only active session is the EMAIL_OTP credential's own.
    expect(await reasonOf(await w.revokeCredential(otp.id, signed(challenge)))).toMatchObject({ status: 400, code: 'SAME_CREDENTIAL_SESSION' });
    const passkeyChallenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    await ok<AuthSession>(w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': passkeyChallenge.requestId }));
    // The 400 spent nothing: the same requestId, signed by the passkey's session, revokes.
    const done = await w.revokeCredential(otp.id, signed(challenge));
    expect(done.status).toBe(204);
    expect(await reasonOf(await w.revokeCredential(otp.id, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    expect((await w.listCredentials(walletId)).data.map((c) => c.id)).toEqual([passkey.id]);
    const sessions = (await w.listSessions(walletId)).data;
    expect(sessions.map((s) => s.credentialId)).toEqual([passkey.id]);
    expect(sessions.some((s) => s.id === session.id)).toBe(false);
    expect((await w.revokeCredential(otp.id)).status).toBe(404);
    expect((await w.verify(otp.id, otpProof())).status).toBe(404);
  });
});

describeServer('races on PostgreSQL', () => {
  itPostgres('one code opens one session, one credential per type, one of two credentials kept, whatever the timing', async () => {
    const { walletId } = await w.newWallet();
    const otp = await ok<AuthMethod>(w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }), 201);
    const verified = await Promise.all(Array.from({ length: 5 }, () => w.verify(otp.id, otpProof())));
    expect(verified.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);

    const other = await w.newWallet();
    const created = await Promise.all(Array.from({ length: 5 }, () => w.addCredential(passkeyBody(other.walletId))));
    expect(created.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect((await w.listCredentials(other.walletId)).data.length).toBe(1);

    // One signed retry sent five times at once: one adds the credential, the others find the requestId spent.
    const third = await w.walletWithSession();
    const oauthBody = { type: 'OAUTH', accountId: third.walletId, oidcToken: await freshToken() };
    const oauthChallenge = await ok<SignedRetryChallenge>(w.addCredential(oauthBody), 202);
    const retried = await Promise.all(Array.from({ length: 5 }, () => w.addCredential(oauthBody, signed(oauthChallenge))));
    expect(await Promise.all(retried.map(async (r) => (r.status === 201 ? '201' : `${r.status} ${(await errorOf(r)).code}`)))).toEqual(
      expect.arrayContaining(['201', '401 REQUEST_ID_REUSED']),
    );
    expect(retried.filter((r) => r.status === 201).length).toBe(1);
    expect(retried.every((r) => r.status === 201 || r.status === 401)).toBe(true);

    // Two credentials, each with a session, revoked at once by signed retries: one stays.
    const passkey = await ok<AuthMethod>(await w.signedRetry((headers) => w.addCredential(passkeyBody(walletId), headers)), 201);
    const passkeyChallenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    await ok<AuthSession>(w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': passkeyChallenge.requestId }));
    const [first, second] = [await ok<SignedRetryChallenge>(w.revokeCredential(otp.id), 202), await ok<SignedRetryChallenge>(w.revokeCredential(passkey.id), 202)];
    const revoked = await Promise.all([w.revokeCredential(otp.id, signed(first)), w.revokeCredential(passkey.id, signed(second))]);
    expect(revoked.map((r) => r.status).sort()).toEqual([204, 400]);
    expect((await w.listCredentials(walletId)).data.length).toBe(1);
  });
});

describeServer('wallet settings and export', () => {
  itServer('PATCH privateEnabled: 202 changes nothing; the signed retry answers the updated account', async () => {
    const { walletId } = await w.walletWithSession();
    const challenge = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    expect(JSON.parse(challenge.payloadToSign)).toMatchObject({ operation: 'updateInternalAccount', accountId: walletId });
    expect((await ok<{ privateEnabled: boolean }>(w.getAccount(walletId))).privateEnabled).toBe(false);
    const updated = await ok<{ id: string; privateEnabled: boolean }>(w.updateWallet(walletId, { privateEnabled: true }, signed(challenge)));
    expect(updated).toMatchObject({ id: walletId, privateEnabled: true });
    expect((await ok<{ privateEnabled: boolean }>(w.getAccount(walletId))).privateEnabled).toBe(true);
    // A requestId authorizes one request.
    expect(await reasonOf(await w.updateWallet(walletId, { privateEnabled: true }, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED', reason: 'Request-Id already used' });
  });

  itServer('export: sealed credentials after the signed retry; a wallet without a credential cannot sign (400 NO_WALLET_CREDENTIAL)', async () => {
    const { walletId } = await w.walletWithSession();
    const exported = await ok<{ id: string; encryptedWalletCredentials: string }>(await w.signedRetry((headers) => w.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }, headers)));
    expect(exported.id).toBe(walletId);
    expect(exported.encryptedWalletCredentials).toMatch(/^[0-9a-f]+$/);
    const bare = await w.newWallet();
    expect(await reasonOf(await w.exportWallet(bare.walletId, { clientPublicKey: CLIENT_KEY }))).toMatchObject({ status: 400, code: 'NO_WALLET_CREDENTIAL' });
    expect(await reasonOf(await w.updateWallet(bare.walletId, { privateEnabled: true }))).toMatchObject({ status: 400, code: 'NO_WALLET_CREDENTIAL' });
  });
});

describe.skipIf(isMock)('quotes from an Embedded Wallet', () => {
  const toEur = async (source: string, customerId: string, amount: number) => {
    const { data } = await api.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR'] } });
    if (data === undefined) throw new Error('no EUR account');
    const eur = await customerInternalAccount(customerId, 'EUR');
    return { source: { sourceType: 'ACCOUNT' as const, accountId: source }, destination: { destinationType: 'ACCOUNT' as const, accountId: eur.id }, lockedCurrencySide: 'SENDING' as const, lockedCurrencyAmount: amount };
  };

  itServer('immediatelyExecute is refused; execution needs a session signature over payloadToSign, once', async () => {
    const { walletId, customerId } = await w.walletWithSession();
    await fund(walletId, 10_000);
    const body = await toEur(`EmbeddedWallet:${uuidOf(walletId)}`, customerId, 1_000);
    const immediate = await postQuote({ ...body, immediatelyExecute: true });
    expect(await reasonOf(immediate)).toMatchObject({ status: 400, code: 'IMMEDIATE_EXECUTION_NOT_SUPPORTED' });
    const quote = await createQuote(body);
    expect(quote.source).toMatchObject({ accountId: walletId });
    const payload = JSON.parse(quote.payloadToSign ?? '{}') as Record<string, unknown>;
    expect(payload).toEqual({ requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), operation: 'executeQuote', accountId: walletId, quoteId: quote.id, totalSendingAmount: 1_000, sendingCurrency: 'USD' });
    expect(await reasonOf(await executeQuote(quote.id))).toMatchObject({ status: 401, reason: 'Missing Service-Wallet-Signature' });
    expect(await reasonOf(await executeQuote(quote.id, undefined, { 'Service-Wallet-Signature': 'forged' }))).toMatchObject({ status: 401, reason: 'Invalid Service-Wallet-Signature' });
    const other = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    expect(await reasonOf(await executeQuote(quote.id, undefined, signed(other)))).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID' });
    expect(await balanceOf(walletId)).toBe(10_000);
    const executed = await executeQuote(quote.id, undefined, signed({ requestId: String(payload.requestId) }));
    expect(executed.status).toBe(200);
    expect(await balanceOf(walletId)).toBe(9_000);
    // The execution spent the requestId: presented again it is 401 before the quote's state (409).
    expect(await reasonOf(await executeQuote(quote.id, undefined, signed({ requestId: String(payload.requestId) })))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    expect((await executeQuote(quote.id, undefined, { 'Service-Wallet-Signature': 'sandbox-valid-signature' })).status).toBe(409);
  });

  itServer("an agent's execution takes the same headers: Request-Id checked first, spent by the execution", async () => {
    const { walletId, customerId } = await w.walletWithSession();
    await fund(walletId, 10_000);
    const { via } = await connectAgent({}, customerId);
    const { data: quote } = await via.POST('/agents/me/quotes', { body: await toEur(walletId, customerId, 1_000) });
    if (quote === undefined) throw new Error('no quote');
    const requestId = String((JSON.parse(quote.payloadToSign ?? '{}') as { requestId?: string }).requestId);
    const execute = (header: { 'Service-Wallet-Signature'?: string; 'Request-Id'?: string }) => via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: quote.id }, header } });
    const other = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    expect((await execute({ 'Service-Wallet-Signature': SIGNATURE, 'Request-Id': other.requestId })).error).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID' });
    expect((await execute({ 'Request-Id': requestId })).error).toMatchObject({ status: 401, reason: 'Missing Service-Wallet-Signature' });
    expect(await balanceOf(walletId)).toBe(10_000);
    const executed = await execute({ 'Service-Wallet-Signature': SIGNATURE, 'Request-Id': requestId });
    expect(executed.data).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED' });
    expect(await balanceOf(walletId)).toBe(9_000);
    expect((await execute({ 'Service-Wallet-Signature': SIGNATURE, 'Request-Id': requestId })).error).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
  });

  itServer('without an active session nothing executes; a wallet without a credential cannot be quoted from', async () => {
    const { walletId, customerId, session } = await w.walletWithSession();
    await fund(walletId, 5_000);
    const quote = await createQuote(await toEur(walletId, customerId, 1_000));
    await w.signedRetry((headers) => w.revokeSession(session.id, headers));
    expect(await reasonOf(await executeQuote(quote.id, undefined, { 'Service-Wallet-Signature': 'sandbox-valid-signature' }))).toMatchObject({ status: 401, reason: 'No active session' });
    expect(await balanceOf(walletId)).toBe(5_000);
    const bare = await w.newWallet();
    const refused = await postQuote(await toEur(bare.walletId, bare.customerId, 1_000));
    expect(await reasonOf(refused)).toMatchObject({ status: 400, code: 'NO_WALLET_CREDENTIAL' });
  });
});
