import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { paginate } from '../db/paginate.ts';
import type { InternalAccountTable } from '../db/schema.ts';
import { isCrypto } from '../currencies.ts';
import { newId } from '../http/ids.ts';
import type { PageRequest } from '../http/pagination.ts';

export type InternalAccountRow = Selectable<InternalAccountTable>;

/** Balances stay far below 2^53 (int8 values come back as JavaScript numbers). */
export const MAX_BALANCE = 9_000_000_000_000_000;

/** Opens one ACTIVE internal account per currency (fiat or crypto) for a customer or, with `customerId: null`, for the platform. */
export async function openInternalAccounts(
  db: Db,
  owner: { platformId: string; customerId: string | null },
  currencies: readonly string[],
  at: Date,
): Promise<InternalAccountRow[]> {
  if (currencies.length === 0) return [];
  return db
    .insertInto('internal_accounts')
    .values(
      currencies.map((code) => ({
        id: newId('InternalAccount'),
        platform_id: owner.platformId,
        customer_id: owner.customerId,
        type: isCrypto(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
        status: 'ACTIVE',
        currency: code,
        private_enabled: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .returningAll()
    .execute();
}

export interface InternalAccountFilters {
  /** A customer id, or `null` for the platform's own accounts. */
  owner: { customerId?: string } | null;
  currency?: string;
  type?: string;
}

export async function listInternalAccounts(db: Db, platformId: string, filters: InternalAccountFilters, page: PageRequest) {
  let q = db.selectFrom('internal_accounts').where('platform_id', '=', platformId);
  if (filters.owner === null) q = q.where('customer_id', 'is', null);
  else if (filters.owner.customerId !== undefined) q = q.where('customer_id', '=', filters.owner.customerId);
  else q = q.where('customer_id', 'is not', null);
  if (filters.currency !== undefined) q = q.where('currency', '=', filters.currency);
  if (filters.type !== undefined) q = q.where('type', '=', filters.type);
  return paginate<'internal_accounts', InternalAccountRow>(q, 'internal_accounts', page);
}

export async function findInternalAccount(db: Db, platformId: string, id: string): Promise<InternalAccountRow | undefined> {
  return db.selectFrom('internal_accounts').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

/**
 * Adds `amount` to an ACTIVE account in one statement (no read-modify-write race). Returns
 * undefined when the account is not ACTIVE or the balance would pass MAX_BALANCE.
 */
export async function creditInternalAccount(db: Db, platformId: string, id: string, amount: number, at: Date): Promise<InternalAccountRow | undefined> {
  return db
    .updateTable('internal_accounts')
    .set((eb) => ({ balance: eb('balance', '+', amount), updated_at: at }))
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('balance', '<=', MAX_BALANCE - amount)
    .returningAll()
    .executeTakeFirst();
}
