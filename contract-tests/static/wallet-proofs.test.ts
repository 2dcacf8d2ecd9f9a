// The seam of Embedded Wallet proofs: the flows call WalletProofs only, so a production verifier
// replaces the sandbox's. Shown with real OIDC ID tokens signed with jose and verified by the
// production form (jose-oidc.ts) against the issuer's keys, and with the sandbox's own checks.
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { withJoseOidc } from '../../server/wallet-auth/jose-oidc.ts';
import { sandboxProofs } from '../../server/wallet-auth/sandbox-proofs.ts';
import type { WalletProofs } from '../../server/context/wallet-proofs.ts';

const GOOGLE = 'https://accounts.google.com';
const now = new Date('2025-10-13T12:00:00Z');
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

describe('OIDC ID tokens verified with jose (the production form)', () => {
  let sign: (claims: Record<string, unknown>) => Promise<string>;
  let forge: (claims: Record<string, unknown>) => Promise<string>;
  let proofs: WalletProofs;

  beforeAll(async () => {
    const issuerKeys = await generateKeyPair('ES256');
    const attacker = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(issuerKeys.publicKey)), kid: 'google-1', alg: 'ES256' };
    const keySet = createLocalJWKSet({ keys: [jwk] });
    const signer = (key: Parameters<SignJWT['sign']>[0]) => (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'google-1' }).sign(key);
    sign = signer(issuerKeys.privateKey);
    forge = signer(attacker.privateKey);
    proofs = withJoseOidc(sandboxProofs, (issuer) => (issuer === GOOGLE ? keySet : undefined));
  });

  const claims = (extra: Record<string, unknown> = {}) => ({ iss: GOOGLE, sub: '1098', email: 'jane@example.com', iat: seconds(now) - 10, ...extra });

  it('accepts a token signed by the issuer, fresh, with the claims; its identity names the credential', async () => {
    expect(await proofs.oidcIdentity(await sign(claims()), now)).toEqual({ ok: true, value: { issuer: GOOGLE, subject: '1098', email: 'jane@example.com' } });
  });

  it('refuses a forged signature, a token older than 60 seconds, an issuer without keys, a missing claim', async () => {
    expect((await proofs.oidcIdentity(await forge(claims()), now)).ok).toBe(false);
    expect((await proofs.oidcIdentity(await sign(claims({ iat: seconds(now) - 61 })), now)).ok).toBe(false);
    expect((await proofs.oidcIdentity(await sign(claims({ iss: 'https://appleid.apple.com' })), now)).ok).toBe(false);
    expect((await proofs.oidcIdentity(await sign(claims({ email: undefined })), now)).ok).toBe(false);
    expect((await proofs.oidcIdentity('not.a.jwt', now)).ok).toBe(false);
  });

  it('verification takes a fresh token of the registered identity only (the magic value is the sandbox\'s)', async () => {
    const registered = { issuer: GOOGLE, subject: '1098' };
    expect(await proofs.oidcMatches(await sign(claims()), registered, now)).toBe(true);
    expect(await proofs.oidcMatches(await sign(claims({ sub: 'someone-else' })), registered, now)).toBe(false);
    expect(await proofs.oidcMatches('sandbox-valid-oidc-token', registered, now)).toBe(false);
    expect(await sandboxProofs.oidcMatches('sandbox-valid-oidc-token', registered, now)).toBe(true);
  });
});

describe('the sandbox proofs', () => {
  const unsigned = (claims: Record<string, unknown>) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

  it('reads OIDC claims without a signature: recognised issuers, a fresh iat', async () => {
    const base = { sub: 's', email: 'a@example.com', iat: seconds(now) };
    for (const iss of [GOOGLE, 'https://appleid.apple.com', 'https://login.microsoftonline.com/9188040d-6c67-4c5b/v2.0', 'https://sandbox-oidc.payments.example.org']) {
      expect((await sandboxProofs.oidcIdentity(unsigned({ ...base, iss }), now)).ok).toBe(true);
    }
    for (const iss of ['https://accounts.google.com.evil.example', 'http://accounts.google.com', 'https://login.microsoftonline.com/x/y/v2.0']) {
      expect((await sandboxProofs.oidcIdentity(unsigned({ ...base, iss }), now)).ok).toBe(false);
    }
    expect((await sandboxProofs.oidcIdentity(unsigned({ ...base, iss: GOOGLE, iat: seconds(now) + 120 }), now)).ok).toBe(false);
  });

  it('a signature is the magic value, attributed to the first candidate session; none active is its own failure', async () => {
    const sessions = [{ id: 'Session:a', clientPublicKey: '02' }, { id: 'Session:b', clientPublicKey: '03' }];
    expect(await sandboxProofs.signer('payload', 'sandbox-valid-signature', sessions)).toEqual({ sessionId: 'Session:a' });
    expect(await sandboxProofs.signer('payload', 'sandbox-valid-signature', [])).toEqual({ failure: 'NO_ACTIVE_SESSION' });
    expect(await sandboxProofs.signer('payload', 'forged', sessions)).toEqual({ failure: 'INVALID_SIGNATURE' });
  });
});
