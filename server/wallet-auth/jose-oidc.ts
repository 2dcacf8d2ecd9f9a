// The production form of the OIDC proofs: ID tokens verified with jose against each recognised
// issuer's keys (a remote JWKS in production; any key set in tests), then the same claim rules as
// the sandbox. `withJoseOidc` swaps it into a WalletProofs without touching the flows.
import { decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { identityFromClaims, isRecognisedIssuer, OIDC_MAX_AGE_SECONDS } from './oidc-claims.ts';
import type { OidcIdentity, Proof, WalletProofs } from '../context/wallet-proofs.ts';

/** The key set of an issuer (for example `createRemoteJWKSet(new URL(jwksUri))`), undefined when unknown. */
export type IssuerKeys = (issuer: string) => JWTVerifyGetKey | undefined;

async function verifiedIdentity(token: string, now: Date, keysOf: IssuerKeys): Promise<Proof<OidcIdentity>> {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    return { ok: false, problem: 'The token is not a decodable JWT.' };
  }
  const keys = typeof issuer === 'string' && isRecognisedIssuer(issuer) ? keysOf(issuer) : undefined;
  if (keys === undefined) return { ok: false, problem: 'The token\'s issuer (iss) is not a recognised OIDC provider.' };
  try {
    const { payload } = await jwtVerify(token, keys, { currentDate: now, maxTokenAge: OIDC_MAX_AGE_SECONDS, clockTolerance: OIDC_MAX_AGE_SECONDS });
    return identityFromClaims(payload, now);
  } catch (err) {
    return { ok: false, problem: `The token does not verify: ${(err as Error).message}` };
  }
}

export function withJoseOidc(base: WalletProofs, keysOf: IssuerKeys): WalletProofs {
  return {
    ...base,
    oidcIdentity: (token, now) => verifiedIdentity(token, now, keysOf),
    async oidcMatches(token, registered, now) {
      const identity = await verifiedIdentity(token, now, keysOf);
      return identity.ok && identity.value.issuer === registered.issuer && identity.value.subject === registered.subject;
    },
  };
}
