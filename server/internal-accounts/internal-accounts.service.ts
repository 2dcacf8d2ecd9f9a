// Internal accounts: opened by the service (customer creation, platform bootstrap), never through
// the API; listed and read by the platform. Their balances move only through the ledger.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context.ts';
import { notFound } from '../shared/errors.ts';
import { isCrypto } from '../shared/currencies.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertPath } from '../shared/state-machine.ts';
import { toInternalAccount } from './internal-accounts.mapper.ts';
import { findInternalAccount, insertInternalAccounts, listInternalAccounts, type InternalAccountRow } from './internal-accounts.repository.ts';

type InternalAccount = components['schemas']['InternalAccount'];
type ListQuery = { limit?: number; cursor?: string; currency?: string; type?: InternalAccount['type'] };

export const internalAccountNotFound = () => notFound('INTERNAL_ACCOUNT_NOT_FOUND', 'No such internal account.');

/** Opens one internal account per currency for a customer or, with `customerId: null`, for the platform. */
export async function openInternalAccounts(ctx: PlatformContext, customerId: string | null, currencies: readonly string[]): Promise<InternalAccountRow[]> {
  // The sandbox provisions at once: PENDING, then ACTIVE, in one step.
  assertPath('InternalAccountStatus', ['PENDING', 'ACTIVE']);
  const at = ctx.clock.now();
  return insertInternalAccounts(
    ctx.db,
    currencies.map((code) => ({
      id: newId('InternalAccount'),
      platform_id: ctx.platformId,
      customer_id: customerId,
      type: isCrypto(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
      status: 'ACTIVE',
      currency: code,
      private_enabled: null,
      created_at: at,
      updated_at: at,
    })),
  );
}

export async function requireInternalAccount(ctx: PlatformContext, accountId: string): Promise<InternalAccountRow> {
  const row = await findInternalAccount(ctx.db, ctx.platformId, accountId);
  if (row === undefined) throw internalAccountNotFound();
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
