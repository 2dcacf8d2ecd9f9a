// What the Embedded Wallet flows need checked, behind one interface: the sandbox answers with its
// magic values (wallet-auth/sandbox-proofs.ts); a production implementation (WebAuthn with
// @simplewebauthn/server, OIDC with jose as in wallet-auth/jose-oidc.ts, real sealing of keys)
// replaces it in the runtime without touching wallet-auth/'s services. It sits beside the runtime
// that holds it, so every layer can name the runtime.
import type { components } from '../../generated/openapi.js';

type Schemas = components['schemas'];

export type Proof<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** The identity an OIDC ID token names. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
}

export interface SigningSession {
  id: string;
  clientPublicKey: string;
}

export type SignerCheck = { readonly sessionId: string } | { readonly failure: 'INVALID_SIGNATURE' | 'NO_ACTIVE_SESSION' };

export interface WalletProofs {
  /** OAUTH registration: the identity of an ID token, checked for structure, issuer, claims and age. */
  oidcIdentity(token: string, now: Date): Promise<Proof<OidcIdentity>>;
  /** OAUTH verification: a fresh ID token of the registered identity. */
  oidcMatches(token: string, registered: { issuer: string; subject: string }, now: Date): Promise<boolean>;
  /** PASSKEY registration: the attestation answers the challenge the platform's backend issued. */
  passkeyRegistration(challenge: string, attestation: Schemas['PasskeyAttestation']): Promise<Proof<true>>;
  /** PASSKEY authentication: the registered passkey signed the service's challenge (hex). */
  passkeyAssertion(challenge: string, assertion: Schemas['PasskeyAssertion'], registeredCredentialId: string): Promise<boolean>;
  /** A fresh six-digit one-time code to e-mail. */
  newOtp(): string;
  /** A new session signing key, sealed to the client's public key. */
  sealSessionKey(clientPublicKey: string): string;
  /** The wallet's credentials, sealed to the client's public key. */
  sealWalletCredentials(clientPublicKey: string): string;
  /** Which candidate session (tried in order) signed `payload`, or why none did. */
  signer(payload: string, signature: string, candidates: readonly SigningSession[]): Promise<SignerCheck>;
}
