// Internal accounts: opened by the service (customer creation, platform bootstrap), never through
// the API; listed and read by the platform. Their balances move only through the ledger. Embedded
// Wallets may be named `EmbeddedWallet:<uuid>` too; they change or export only with their owner's
// signature (wallet-auth/embedded-wallet.service.ts).
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { isCrypto } from '../shared/currencies.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertPath } from '../shared/state-machine.ts';
import { toInternalAccount } from './internal-accounts.mapper.ts';
import { findInternalAccount, insertInternalAccounts, listInternalAccounts, lockInternalAccount, updatePrivacy, type InternalAccountRow } from './internal-accounts.repository.ts';

type InternalAccount = components['schemas']['InternalAccount'];
type ListQuery = { limit?: number; cursor?: string; currency?: string; type?: InternalAccount['type'] };

export const internalAccountNotFound = () => notFound('INTERNAL_ACCOUNT_NOT_FOUND', 'No such internal account.');

/** Opens one internal account per currency for a customer or, with `customerId: null`, for the platform. */
export async function openInternalAccounts(ctx: PlatformContext, customerId: string | null, currencies: readonly string[], kind: 'HELD' | 'EMBEDDED_WALLET' = 'HELD'): Promise<InternalAccountRow[]> {
  // The sandbox provisions at once: PENDING, then ACTIVE, in one step.
  assertPath('InternalAccountStatus', ['PENDING', 'ACTIVE']);
  const at = ctx.clock.now();
  return insertInternalAccounts(
    ctx.db,
    currencies.map((code) => ({
      id: newId('InternalAccount'),
      platform_id: ctx.platformId,
      customer_id: customerId,
      type: kind === 'EMBEDDED_WALLET' ? 'EMBEDDED_WALLET' : isCrypto(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
      status: 'ACTIVE',
      currency: code,
      private_enabled: kind === 'EMBEDDED_WALLET' ? false : null,
      created_at: at,
      updated_at: at,
    })),
  );
}

const WALLET_PREFIX = 'EmbeddedWallet:';

/** The `InternalAccount:` id of an account named either way; `EmbeddedWallet:` names wallets only. */
export const canonicalAccountId = (accountId: string): string =>
  accountId.startsWith(WALLET_PREFIX) ? `InternalAccount:${accountId.slice(WALLET_PREFIX.length)}` : accountId;

async function findNamedAccount(ctx: PlatformContext, accountId: string, lock: boolean): Promise<InternalAccountRow> {
  const id = canonicalAccountId(accountId);
  const row = lock ? await lockInternalAccount(ctx.db, ctx.platformId, id) : await findInternalAccount(ctx.db, ctx.platformId, id);
  if (row === undefined || (accountId.startsWith(WALLET_PREFIX) && row.type !== 'EMBEDDED_WALLET')) throw internalAccountNotFound();
  return row;
}

export async function requireInternalAccount(ctx: PlatformContext, accountId: string): Promise<InternalAccountRow> {
  return findNamedAccount(ctx, accountId, false);
}

/** An `EMBEDDED_WALLET` account (400 for another type), locked when asked: its credentials change one at a time. */
export async function requireEmbeddedWallet(ctx: PlatformContext, accountId: string, options: { lock?: boolean } = {}): Promise<InternalAccountRow> {
  const row = await findNamedAccount(ctx, accountId, options.lock === true);
  if (row.type !== 'EMBEDDED_WALLET') {
    throw badRequest('NOT_AN_EMBEDDED_WALLET', `${row.id} is an ${row.type} account; only EMBEDDED_WALLET accounts have credentials, sessions and wallet settings.`, { accountId: row.id });
  }
  return row;
}

export async function getInternalAccount(ctx: PlatformContext, accountId: string): Promise<InternalAccount> {
  return toInternalAccount(await requireInternalAccount(ctx, accountId));
}

export async function listCustomerInternalAccounts(ctx: PlatformContext, query: ListQuery & { customerId?: string }): Promise<Page<InternalAccount>> {
  return listPage(ctx.keys, query, (f, page) => listInternalAccounts(ctx.db, ctx.platformId, { owner: { customerId: f.customerId }, currency: f.currency, type: f.type }, page), toInternalAccount);
}

export async function listPlatformInternalAccounts(ctx: PlatformContext, query: ListQuery): Promise<Page<InternalAccount>> {
  return listPage(ctx.keys, query, (f, page) => listInternalAccounts(ctx.db, ctx.platformId, { owner: null, currency: f.currency, type: f.type }, page), toInternalAccount);
}

/** An Embedded Wallet's settings changed (its owner signed the change: wallet-auth/embedded-wallet.service.ts). */
export async function changeWalletSettings(ctx: PlatformContext, wallet: InternalAccountRow, settings: components['schemas']['InternalAccountUpdateRequest']): Promise<InternalAccount> {
  const updated = settings.privateEnabled === undefined ? wallet : await updatePrivacy(ctx.db, wallet.id, settings.privateEnabled, ctx.clock.now());
  return toInternalAccount(updated);
}
