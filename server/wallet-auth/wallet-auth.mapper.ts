import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { CredentialRow, SessionRow, WalletRequestRow } from './wallet-auth.repository.ts';

type Schemas = components['schemas'];

/**
 * The wallet as credentials and sessions name it, `EmbeddedWallet:<uuid>` (the specification's
 * form), from the `InternalAccount:<uuid>` id its rows keep; requests may name it either way.
 */
export const walletName = (internalAccountId: string): string => `EmbeddedWallet:${internalAccountId.slice(internalAccountId.indexOf(':') + 1)}`;

export const toAuthMethod = (row: CredentialRow): Schemas['AuthMethod'] => ({
  id: row.id,
  accountId: walletName(row.account_id),
  type: row.type,
  nickname: row.nickname,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** A session as lists show it: never its signing key. */
export const toAuthSession = (row: SessionRow, type: CredentialRow['type']): Schemas['AuthSession'] => ({
  id: row.id,
  credentialId: row.credential_id,
  accountId: walletName(row.account_id),
  type,
  expiresAt: iso(row.expires_at),
  createdAt: iso(row.created_at),
});

/** The session `/verify` opened, with its sealed signing key (shown only here). */
export const toNewAuthSession = (row: SessionRow, type: CredentialRow['type'], encryptedSessionSigningKey: string): Schemas['AuthSessionWithSigningKey'] => {
  const { expiresAt, createdAt, ...rest } = toAuthSession(row, type);
  return { ...rest, encryptedSessionSigningKey, expiresAt, createdAt };
};

export const toSignedRetryChallenge = (row: WalletRequestRow): Schemas['SignedRetryChallenge'] => ({
  type: row.signer_type,
  payloadToSign: row.payload,
  requestId: row.id,
  expiresAt: iso(row.expires_at),
});

export const toPasskeyChallenge = (row: WalletRequestRow): Schemas['PasskeyAuthChallenge'] => ({
  type: 'PASSKEY',
  credentialId: row.target_id,
  challenge: row.payload,
  requestId: row.id,
  expiresAt: iso(row.expires_at),
});
