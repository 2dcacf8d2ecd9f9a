// Sandbox magic values of Embedded Wallet authentication: the sandbox has no real OTP e-mails,
// passkeys, OIDC providers or session keys, so each proof is one fixed value and anything else
// fails with `401 UNAUTHORIZED` and a `reason`. Spec: the table in the description of the
// `Embedded Wallet Auth` tag.
import type { components } from '../../generated/openapi.js';

type Unauthorized = Extract<NonNullable<components['schemas']['Error401']['code']>, 'UNAUTHORIZED'>;

export const SANDBOX_MAGIC_VALUES = {
  /** `otp` of `POST /auth/credentials/{credentialId}/verify` (`EMAIL_OTP`). */
  otp: { value: '000000', failureReason: 'Invalid OTP code' },
  /** `assertion.signature` of `POST /auth/credentials/{credentialId}/verify` (`PASSKEY`). */
  'assertion.signature': { value: 'sandbox-valid-passkey-signature', failureReason: 'Invalid passkey signature' },
  /** `oidcToken` of `POST /auth/credentials/{credentialId}/verify` (`OAUTH`); creation takes a real JWT. */
  oidcToken: { value: 'sandbox-valid-oidc-token', failureReason: 'Invalid OIDC token' },
  /** Header of every signed retry, and of quote execution from an `EMBEDDED_WALLET` source. */
  'Service-Wallet-Signature': { value: 'sandbox-valid-signature', failureReason: 'Invalid Service-Wallet-Signature' },
} as const satisfies Readonly<Record<string, { readonly value: string; readonly failureReason: string }>>;

export type MagicValueField = keyof typeof SANDBOX_MAGIC_VALUES;

export type MagicValueCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly httpStatus: 401; readonly code: Unauthorized; readonly reason: string };

const failure = (field: MagicValueField): MagicValueCheck => ({
  ok: false,
  httpStatus: 401,
  code: 'UNAUTHORIZED',
  reason: SANDBOX_MAGIC_VALUES[field].failureReason,
});

/**
 * Whether `value` is the sandbox's accepted value for `field`, compared by `same`: a constant-time
 * comparison (shared/constant-time.ts) where it stands for a signature or a token, given by the
 * caller so this module stays pure.
 */
export function checkMagicValue(field: MagicValueField, value: string, same: (given: string, accepted: string) => boolean): MagicValueCheck {
  return same(value, SANDBOX_MAGIC_VALUES[field].value) ? { ok: true } : failure(field);
}
