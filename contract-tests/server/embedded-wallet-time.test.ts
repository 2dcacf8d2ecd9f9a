// Embedded Wallet rules that need the clock to move, on a server of this file's own (PGlite on the
// pglite target, a fresh PostgreSQL database on the postgres target): a signed-retry request
// expires, a session lasts 15 minutes, an OTP 10, challenges are rate-limited, wrong codes void
// the code they were tried against but never lock the owner out. On PostgreSQL, a requestId issued
// by one server process is used up by a retry that reaches another.
import { describe, expect, it } from 'vitest';
import { errorOf, target } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';
import { ok } from '../support/quotes.ts';
import { advanceClock } from '../support/server-process.ts';
import { CLIENT_KEY, otpProof, passkeyAssertion, passkeyBody, signed, walletCalls, type AuthMethod, type AuthSession, type SignedRetryChallenge } from '../support/wallets.ts';

const MINUTE = 60_000;

describe.skipIf(target === 'prism')('Embedded Wallet rules over time', () => {
  const own = ownServer({ onTargetDatabase: true });
  const calls = () => walletCalls(own.server.baseUrl, own.token);
  const reasonOf = async (res: Response) => {
    const body = await errorOf(res);
    return { status: res.status, code: body.code, reason: body.reason };
  };

  it('a signed-retry request expires after 5 minutes: the retry is 401 REQUEST_ID_INVALID, nothing changes', async () => {
    const w = calls();
    const { walletId } = await w.walletWithSession();
    const challenge = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    await advanceClock(own.server.origin, 5 * MINUTE + 1_000);
    // A fresh session, so only the request's age is at stake.
    const otp = (await w.listCredentials(walletId)).data[0];
    if (otp === undefined) throw new Error('no credential');
    await ok<AuthMethod>(w.challenge(otp.id));
    await ok<AuthSession>(w.verify(otp.id, otpProof()));
    const late = await w.updateWallet(walletId, { privateEnabled: true }, signed(challenge));
    expect(await reasonOf(late)).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID', reason: 'Unknown or expired Request-Id' });
    expect((await ok<{ privateEnabled: boolean }>(w.getAccount(walletId))).privateEnabled).toBe(false);
  });

  it('a session lasts 15 minutes: then it is no longer listed and signs nothing', async () => {
    const w = calls();
    const { walletId } = await w.walletWithSession();
    await advanceClock(own.server.origin, 15 * MINUTE - 5_000);
    expect((await w.listSessions(walletId)).data.length).toBe(1);
    const challenge = await ok<SignedRetryChallenge>(w.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }), 202);
    await advanceClock(own.server.origin, 10_000);
    expect((await w.listSessions(walletId)).data).toEqual([]);
    const refused = await w.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }, signed(challenge));
    expect(await reasonOf(refused)).toMatchObject({ status: 401, reason: 'No active session' });
  });

  it('an e-mailed code is valid 10 minutes', async () => {
    const w = calls();
    const { walletId } = await w.newWallet();
    const credential = await ok<AuthMethod>(w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }), 201);
    await advanceClock(own.server.origin, 10 * MINUTE + 1_000);
    expect(await reasonOf(await w.verify(credential.id, otpProof()))).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    await ok<AuthMethod>(w.challenge(credential.id));
    expect((await w.verify(credential.id, otpProof())).status).toBe(200);
  });

  it('a credential is challenged at most once in 30 seconds (429 with Retry-After, held in the database)', async () => {
    const w = calls();
    const { walletId } = await w.newWallet();
    const passkey = await ok<AuthMethod>(w.addCredential(passkeyBody(walletId)), 201);
    await ok<unknown>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    await advanceClock(own.server.origin, 20_000);
    const early = await w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY });
    expect(early.status).toBe(429);
    expect((await errorOf(early)).code).toBe('RATE_LIMITED');
    expect(Number(early.headers.get('retry-after'))).toBe(10);
    await advanceClock(own.server.origin, 10_000);
    const challenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    // A passkey challenge is answered within 5 minutes.
    await advanceClock(own.server.origin, 5 * MINUTE + 1_000);
    expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': challenge.requestId }))).toMatchObject({ status: 401, code: 'REQUEST_ID_INVALID' });
  });

  it('wrong e-mailed codes never lock the owner out: the 5th voids that code, and the next code opens a session at once', async () => {
    const w = calls();
    const { walletId } = await w.newWallet();
    const credential = await ok<AuthMethod>(w.addCredential({ type: 'EMAIL_OTP', accountId: walletId, email: 'jane@example.com' }), 201);
    for (let i = 0; i < 4; i++) expect(await reasonOf(await w.verify(credential.id, otpProof('111111')))).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    // Four wrong codes cost the right one nothing.
    expect((await w.verify(credential.id, otpProof())).status).toBe(200);

    await advanceClock(own.server.origin, 30_000);
    await ok<AuthMethod>(w.challenge(credential.id));
    for (let i = 0; i < 5; i++) expect(await reasonOf(await w.verify(credential.id, otpProof('111111')))).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    // The fifth voided the code: six digits may not be guessed further, so its right value is refused too...
    expect(await reasonOf(await w.verify(credential.id, otpProof()))).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    // ...and the next code e-mailed opens a session, however many wrong codes came before.
    await advanceClock(own.server.origin, 30_000);
    await ok<AuthMethod>(w.challenge(credential.id));
    expect((await w.verify(credential.id, otpProof('111111'))).status).toBe(401);
    expect((await w.verify(credential.id, otpProof())).status).toBe(200);
  });

  it('wrong passkey assertions are not limited (they cannot be guessed): the right one opens a session after any number of them', async () => {
    const w = calls();
    const { walletId } = await w.newWallet();
    const passkey = await ok<AuthMethod>(w.addCredential(passkeyBody(walletId)), 201);
    const challenge = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    for (let i = 0; i < 8; i++) {
      expect(await reasonOf(await w.verify(passkey.id, passkeyAssertion(`not-the-signature-${i}`), { 'Request-Id': challenge.requestId }))).toMatchObject({ status: 401, reason: 'Invalid passkey signature' });
    }
    await advanceClock(own.server.origin, 30_000);
    const fresh = await ok<{ requestId: string }>(w.challenge(passkey.id, { clientPublicKey: CLIENT_KEY }));
    expect((await w.verify(passkey.id, passkeyAssertion(), { 'Request-Id': fresh.requestId })).status).toBe(200);
  });

  it.skipIf(target !== 'postgres')('a requestId lives in the database: issued by one process, used up through another', async () => {
    const w = calls();
    const other = await own.startAnother();
    const w2 = walletCalls(other.baseUrl, own.token);
    const { walletId } = await w.walletWithSession();
    const challenge = await ok<SignedRetryChallenge>(w.updateWallet(walletId, { privateEnabled: true }), 202);
    const updated = await ok<{ privateEnabled: boolean }>(w2.updateWallet(walletId, { privateEnabled: true }, signed(challenge)));
    expect(updated.privateEnabled).toBe(true);
    expect(await reasonOf(await w.updateWallet(walletId, { privateEnabled: true }, signed(challenge)))).toMatchObject({ status: 401, code: 'REQUEST_ID_REUSED' });
    // Two retries racing on two processes: one effect.
    const race = await ok<SignedRetryChallenge>(w.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }), 202);
    const results = await Promise.all([w.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }, signed(race)), w2.exportWallet(walletId, { clientPublicKey: CLIENT_KEY }, signed(race))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
