// An Embedded Wallet's own actions on its internal account: changing its settings and exporting
// its credentials, each only once the wallet's owner signed it (the signed-retry pattern).
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { canonicalAccountId, changeWalletSettings, requireEmbeddedWallet } from '../internal-accounts/internal-accounts.service.ts';
import { checkSignedRetryFirst, requireWalletSignature, type SignatureHeaders, type Signed } from './signed-retry.service.ts';

type InternalAccount = components['schemas']['InternalAccount'];

/** `PATCH /internal-accounts/{accountId}`: the wallet's settings, once its owner signed the change. */
export async function updateEmbeddedWallet(
  ctx: PlatformContext,
  accountId: string,
  body: components['schemas']['InternalAccountUpdateRequest'],
  headers: SignatureHeaders,
): Promise<Signed<InternalAccount>> {
  await checkSignedRetryFirst(ctx, { operation: 'updateInternalAccount', targetId: canonicalAccountId(accountId), body }, headers);
  const wallet = await requireEmbeddedWallet(ctx, accountId);
  const outcome = await requireWalletSignature(ctx, { wallet, operation: 'updateInternalAccount', target: { field: 'accountId', id: wallet.id }, body }, headers);
  if (!outcome.signed) return outcome;
  return { signed: true, result: await changeWalletSettings(ctx, wallet, body) };
}

/** `POST /internal-accounts/{accountId}/export`: the wallet's credentials sealed to the client's key, once signed. */
export async function exportEmbeddedWallet(
  ctx: PlatformContext,
  accountId: string,
  body: components['schemas']['InternalAccountExportRequest'],
  headers: SignatureHeaders,
): Promise<Signed<components['schemas']['InternalAccountExportResponse']>> {
  await checkSignedRetryFirst(ctx, { operation: 'exportInternalAccount', targetId: canonicalAccountId(accountId), body }, headers);
  const wallet = await requireEmbeddedWallet(ctx, accountId);
  const outcome = await requireWalletSignature(ctx, { wallet, operation: 'exportInternalAccount', target: { field: 'accountId', id: wallet.id }, body }, headers);
  if (!outcome.signed) return outcome;
  return { signed: true, result: { id: wallet.id, encryptedWalletCredentials: ctx.walletProofs.sealWalletCredentials(body.clientPublicKey) } };
}
