// The claims an OIDC ID token must carry to register an OAUTH credential, whoever checked its
// signature: a recognised issuer, a subject, an e-mail (the credential's nickname) and an `iat` at
// most 60 seconds old. Spec: OauthCredentialCreateRequest.oidcToken.
import type { OidcIdentity, Proof } from '../context/wallet-proofs.ts';

export const OIDC_MAX_AGE_SECONDS = 60;

const RECOGNISED_ISSUERS: readonly RegExp[] = [
  /^https:\/\/accounts\.google\.com$/,
  /^https:\/\/appleid\.apple\.com$/,
  /^https:\/\/login\.microsoftonline\.com\/[0-9A-Za-z.-]{1,64}\/v2\.0$/,
  /^https:\/\/sandbox-oidc\.payments\.example\.org$/,
];

export const isRecognisedIssuer = (issuer: string): boolean => RECOGNISED_ISSUERS.some((pattern) => pattern.test(issuer));

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export function identityFromClaims(claims: Record<string, unknown>, now: Date): Proof<OidcIdentity> {
  const { iss, sub, email, iat } = claims;
  if (typeof iss !== 'string' || !isRecognisedIssuer(iss)) return { ok: false, problem: 'The token\'s issuer (iss) is not a recognised OIDC provider.' };
  if (typeof sub !== 'string' || sub.length === 0) return { ok: false, problem: 'The token has no subject (sub).' };
  if (typeof email !== 'string' || !EMAIL.test(email) || email.length > 254) return { ok: false, problem: 'The token has no e-mail address (email claim).' };
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return { ok: false, problem: 'The token has no issue time (iat).' };
  const age = now.getTime() / 1000 - iat;
  if (age > OIDC_MAX_AGE_SECONDS) return { ok: false, problem: `The token was issued ${Math.floor(age)} seconds ago; at most ${OIDC_MAX_AGE_SECONDS} are allowed.` };
  if (age < -OIDC_MAX_AGE_SECONDS) return { ok: false, problem: 'The token\'s issue time (iat) is in the future.' };
  return { ok: true, value: { issuer: iss, subject: sub, email } };
}
