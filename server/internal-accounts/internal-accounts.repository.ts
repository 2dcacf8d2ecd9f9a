// Internal accounts: opened by the service, listed and read here. Their `balance` column belongs
// to the ledger (ledger.repository.ts), the only code that changes it.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery, type ListPlan } from '../db/paginate.ts';
import type { InternalAccountTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type InternalAccountRow = Selectable<InternalAccountTable>;
export type NewInternalAccountRow = Omit<InternalAccountRow, 'balance'>;

export async function insertInternalAccounts(db: Db, rows: NewInternalAccountRow[]): Promise<InternalAccountRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('internal_accounts').values(rows).returningAll().execute();
}

export interface InternalAccountFilters {
  /** A customer id, or `null` for the platform's own accounts. */
  owner: { customerId?: string } | null;
  currency?: string;
  type?: InternalAccountRow['type'];
}

type InternalAccountListParams = { platformId: string; customerId?: string; currency?: string; type?: InternalAccountRow['type'] };

/** Counts kept by the database (migration 0018): unfiltered, or by currency or type alone. */
const planOf = (owner: 'customer' | 'platform'): ListPlan<InternalAccountListParams> => ({ fixed: `customer_owned=${owner === 'customer'}`, by: { currency: 'currency', type: 'type' } });

/** The customers' accounts (`customer`) or the platform's own: two lists, each with its own index and counts. */
const internalAccountsPage = (owner: 'customer' | 'platform') =>
  pageQuery(
    'internal_accounts',
    (db, p: InternalAccountListParams) => {
      let q = db.selectFrom('internal_accounts').where('platform_id', '=', p.platformId).where('customer_id', owner === 'customer' ? 'is not' : 'is', null);
      if (p.customerId !== undefined) q = q.where('customer_id', '=', p.customerId);
      if (p.currency !== undefined) q = q.where('currency', '=', p.currency);
      if (p.type !== undefined) q = q.where('type', '=', p.type);
      return q;
    },
    (s) => s.selectAll(),
    planOf(owner),
  );
const internalAccountsPages = { customer: internalAccountsPage('customer'), platform: internalAccountsPage('platform') };

export async function listInternalAccounts(db: Db, platformId: string, filters: InternalAccountFilters, page: PageRequest): Promise<PageRows<InternalAccountRow>> {
  const { owner } = filters;
  // The platform's own accounts, one customer's, or every customer's.
  if (owner === null) return internalAccountsPages.platform(db, { platformId, currency: filters.currency, type: filters.type }, page);
  return internalAccountsPages.customer(db, { platformId, customerId: owner.customerId, currency: filters.currency, type: filters.type }, page);
}

/** The customer's first ACTIVE internal account in `currency` (not an Embedded Wallet): its primary one. */
export async function findPrimaryInternalAccount(db: Db, platformId: string, customerId: string, currency: string): Promise<InternalAccountRow | undefined> {
  return db
    .selectFrom('internal_accounts')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .where('status', '=', 'ACTIVE')
    .where('type', '!=', 'EMBEDDED_WALLET')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

export async function findInternalAccount(db: Db, platformId: string, id: string): Promise<InternalAccountRow | undefined> {
  return db.selectFrom('internal_accounts').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

/** The account, locked (as the ledger locks it) until the end of the transaction: its wallet's credentials change one at a time. */
export async function lockInternalAccount(db: Db, platformId: string, id: string): Promise<InternalAccountRow | undefined> {
  return db.selectFrom('internal_accounts').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

export async function updatePrivacy(db: Db, id: string, privateEnabled: boolean, at: Date): Promise<InternalAccountRow> {
  return db.updateTable('internal_accounts').set({ private_enabled: privateEnabled, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
