import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { violatedUniqueConstraint } from '../db/errors.ts';
import { pageQuery, type ListPlan } from '../db/paginate.ts';
import type { ExternalAccountTable } from '../db/schema.ts';
import { SEALED_PREFIX } from '../shared/keyring.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type ExternalAccountRow = Selectable<ExternalAccountTable>;
type NewExternalAccount = Omit<ExternalAccountRow, 'deleted_at'>;

/** Accounts of customers (`customer`) or of the platform itself (`platform`). */
export type Owner = 'customer' | 'platform';

export type InsertResult = { kind: 'inserted'; row: ExternalAccountRow } | { kind: 'duplicate' } | { kind: 'default-taken' };

/**
 * Inserts an account; the partial unique indexes of the migration decide duplicates, so two
 * concurrent registrations cannot both win. The caller's transaction is unusable after a
 * violation (PostgreSQL aborts it): the caller must fail the request.
 */
export async function insertExternalAccount(db: Db, row: NewExternalAccount): Promise<InsertResult> {
  try {
    const inserted = await db
      .insertInto('external_accounts')
      .values({ ...row, account_info: JSON.stringify(row.account_info), deleted_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { kind: 'inserted', row: inserted };
  } catch (err) {
    const constraint = violatedUniqueConstraint(err);
    if (constraint === 'external_accounts_unique_identifier') return { kind: 'duplicate' };
    if (constraint === 'external_accounts_one_default') return { kind: 'default-taken' };
    throw err;
  }
}

/** Switches off the customer's current default UMA deposit account, if any. */
export async function clearDefaultUmaDepositAccount(db: Db, platformId: string, customerId: string, at: Date): Promise<void> {
  await db
    .updateTable('external_accounts')
    .set({ default_uma_deposit_account: false, updated_at: at })
    .where('platform_id', '=', platformId)
    .where('customer_id', '=', customerId)
    .where('default_uma_deposit_account', '=', true)
    .execute();
}


/** An account of a customer or of the platform, or (owner `any`) of either. */
/** The customer's ACTIVE default UMA deposit account, if one is set. */
export async function findDefaultUmaDepositAccount(db: Db, platformId: string, customerId: string): Promise<ExternalAccountRow | undefined> {
  return db
    .selectFrom('external_accounts')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('customer_id', '=', customerId)
    .where('default_uma_deposit_account', '=', true)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
}

export async function findExternalAccount(db: Db, platformId: string, owner: Owner | 'any', id: string): Promise<ExternalAccountRow | undefined> {
  return db
    .selectFrom('external_accounts')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .$if(owner !== 'any', (q) => q.where('customer_id', owner === 'customer' ? 'is not' : 'is', null))
    .executeTakeFirst();
}

export interface ExternalAccountFilters {
  customerId?: string;
  currency?: string;
  /** Only this status; absent: every status but INACTIVE. */
  status?: ExternalAccountRow['status'];
}

/**
 * Counts kept by the database (migration 0018): the listed statuses (every one but INACTIVE)
 * unfiltered or by currency, or one status alone.
 */
const planOf = (owner: Owner): ListPlan<ExternalAccountFilters & { platformId: string }> => ({
  fixed: `customer_owned=${owner === 'customer'}`,
  by: { currency: 'currency', status: 'status' },
});

/** The customers' accounts or the platform's own: two lists, each with its own index and counts. */
const externalAccountsPage = (owner: Owner) =>
  pageQuery(
    'external_accounts',
    (db, p: ExternalAccountFilters & { platformId: string }) => {
      let q = db
        .selectFrom('external_accounts')
        .where('platform_id', '=', p.platformId)
        .where('customer_id', owner === 'customer' ? 'is not' : 'is', null);
      // A literal, not a value: a query template sends only the call's values (query-template.ts),
      // and the partial indexes of migration 0018 hold the rows this predicate names.
      q = p.status === undefined ? q.where(sql<boolean>`status <> 'INACTIVE'`) : q.where('status', '=', p.status);
      if (p.customerId !== undefined) q = q.where('customer_id', '=', p.customerId);
      if (p.currency !== undefined) q = q.where('currency', '=', p.currency);
      return q;
    },
    (s) => s.selectAll(),
    planOf(owner),
  );
const externalAccountsPages = { customer: externalAccountsPage('customer'), platform: externalAccountsPage('platform') };

/** Accounts in the status asked for (by default every one but INACTIVE), newest first. */
export async function listExternalAccounts(db: Db, platformId: string, owner: Owner, filters: ExternalAccountFilters, page: PageRequest): Promise<PageRows<ExternalAccountRow>> {
  return externalAccountsPages[owner](db, { platformId, customerId: filters.customerId, currency: filters.currency, status: filters.status }, page);
}

/** Deletes (INACTIVE, no longer the default), only from the status the caller saw; false when it had changed. */
export async function deactivateExternalAccount(db: Db, platformId: string, id: string, from: ExternalAccountRow['status'], at: Date): Promise<boolean> {
  const result = await db
    .updateTable('external_accounts')
    .set({ status: 'INACTIVE', default_uma_deposit_account: false, deleted_at: at, updated_at: at })
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Accounts whose beneficiary's tax id is stored in clear (by an earlier version); none once sealed. */
export async function listUnsealedTaxIds(db: Db): Promise<Pick<ExternalAccountRow, 'id' | 'account_info'>[]> {
  return db.selectFrom('external_accounts').select(['id', 'account_info']).where(sql<string>`account_info #>> '{beneficiary,taxId}'`, 'not like', `${SEALED_PREFIX}%`).execute();
}

/** Replaces the stored account info, as it is (no change of `updated_at`: nothing the API shows changed). */
export async function setAccountInfo(db: Db, id: string, accountInfo: ExternalAccountRow['account_info']): Promise<void> {
  await db.updateTable('external_accounts').set({ account_info: JSON.stringify(accountInfo) }).where('id', '=', id).execute();
}

/** Moves the beneficiary name check on, only from the status the caller saw; undefined when it had changed meanwhile. */
export async function moveBeneficiaryVerification(
  db: Db,
  platformId: string,
  id: string,
  from: NonNullable<ExternalAccountRow['beneficiary_verification_status']>,
  changes: Pick<ExternalAccountRow, 'beneficiary_verification_status' | 'beneficiary_verified_name'>,
  at: Date,
): Promise<ExternalAccountRow | undefined> {
  return db
    .updateTable('external_accounts')
    .set({ ...changes, updated_at: at })
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('beneficiary_verification_status', '=', from)
    .returningAll()
    .executeTakeFirst();
}
