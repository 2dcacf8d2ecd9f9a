// The sandbox's proofs: no e-mail, passkey, identity provider or session key is real, so each proof
// is the magic value of the specification's table (simulation/embedded-wallet.ts). OIDC tokens are
// decoded and their claims checked, but their signatures are not (the sandbox has no provider keys);
// a passkey registration must answer the platform's challenge in its client data.
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { checkMagicValue } from '../simulation/embedded-wallet.ts';
import { identityFromClaims } from './oidc-claims.ts';
import type { WalletProofs } from '../context/wallet-proofs.ts';
import { sameText } from '../shared/constant-time.ts';

/** The WebAuthn client data of a registration, base64url JSON. */
function registrationChallenge(clientDataJson: string): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(clientDataJson, 'base64url').toString('utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return undefined;
    const { type, challenge } = data as Record<string, unknown>;
    return type === 'webauthn.create' && typeof challenge === 'string' ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** A stub standing in for key material sealed to the client: random, so it carries nothing. */
const stubSealed = (): string => `04${randomBytes(96).toString('hex')}`;

const stripPadding = (value: string): string => value.replace(/=+$/, '');

export const sandboxProofs: WalletProofs = {
  async oidcIdentity(token, now) {
    let claims: Record<string, unknown>;
    try {
      claims = decodeJwt(token);
    } catch {
      return { ok: false, problem: 'The token is not a decodable JWT.' };
    }
    return identityFromClaims(claims, now);
  },
  async oidcMatches(token) {
    return checkMagicValue('oidcToken', token, sameText).ok;
  },
  async passkeyRegistration(challenge, attestation) {
    const answered = registrationChallenge(attestation.clientDataJson);
    if (answered === undefined) return { ok: false, problem: 'attestation.clientDataJson is not WebAuthn client data of type webauthn.create.' };
    if (!sameText(stripPadding(answered), stripPadding(challenge))) return { ok: false, problem: 'The attestation answers another challenge than the top-level challenge.' };
    return { ok: true, value: true };
  },
  async passkeyAssertion(_challenge, assertion, registeredCredentialId) {
    return stripPadding(assertion.credentialId) === stripPadding(registeredCredentialId) && checkMagicValue('assertion.signature', assertion.signature, sameText).ok;
  },
  newOtp: () => '000000',
  sealSessionKey: stubSealed,
  sealWalletCredentials: stubSealed,
  async signer(_payload, signature, candidates) {
    if (!checkMagicValue('Service-Wallet-Signature', signature, sameText).ok) return { failure: 'INVALID_SIGNATURE' };
    const first = candidates[0];
    return first === undefined ? { failure: 'NO_ACTIVE_SESSION' } : { sessionId: first.id };
  },
};
