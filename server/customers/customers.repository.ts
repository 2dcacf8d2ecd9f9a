import { sql, type Insertable, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { violatedUniqueConstraint } from '../db/errors.ts';
import { inTimeWindow, pageQuery, TIME_WINDOW_BOUNDS, timeWindow, type ListPlan, type TimeWindow } from '../db/paginate.ts';
import { firstRow, queryTemplate } from '../db/query-template.ts';
import type { BusinessProfile, CustomerTable, Database, IndividualProfile } from '../db/schema.ts';
import { SEALED_PREFIX } from '../shared/keyring.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type CustomerRow = Selectable<CustomerTable>;
export type NewCustomerRow = Omit<Insertable<CustomerTable>, 'is_deleted' | 'profile'> & { profile: IndividualProfile | BusinessProfile };
export type CustomerChanges = Partial<Pick<CustomerRow, 'currencies' | 'embedded_wallet_currencies' | 'email' | 'phone_number' | 'uma_address' | 'identifier'>> & {
  profile?: IndividualProfile | BusinessProfile;
};

export interface CustomerFilters {
  platformCustomerId?: string;
  customerType?: CustomerRow['customer_type'];
  region?: string;
  currency?: string;
  umaAddress?: string;
  kycStatus?: NonNullable<CustomerRow['kyc_status']>;
  kybStatus?: NonNullable<CustomerRow['kyb_status']>;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  isIncludingDeleted?: boolean;
}

/** The unique constraints whose violation is a 409 rather than a bug. */
export type CustomerUniqueConstraint = 'customers_platform_customer_id' | 'customers_uma_address';

export function violatedCustomerConstraint(err: unknown): CustomerUniqueConstraint | undefined {
  const constraint = violatedUniqueConstraint(err);
  return constraint === 'customers_platform_customer_id' || constraint === 'customers_uma_address' ? constraint : undefined;
}

export async function insertCustomer(db: Db, row: NewCustomerRow): Promise<CustomerRow> {
  return db.insertInto('customers').values({ ...row, profile: JSON.stringify(row.profile) }).returningAll().executeTakeFirstOrThrow();
}

const customerById = queryTemplate<{ platformId: string; id: string }, CustomerRow>((db, p) =>
  db.selectFrom('customers').selectAll().where('platform_id', '=', p.platformId).where('id', '=', p.id),
);

export async function findCustomer(db: Db, platformId: string, id: string): Promise<CustomerRow | undefined> {
  return firstRow(db, customerById, { platformId, id });
}

/** Reads the customer with a row lock, so concurrent writes to it (and its children) serialize. */
/** The platform's customer with this UMA address; the domain compared case-insensitively. */
export async function findCustomerByUmaAddress(db: Db, platformId: string, canonicalAddress: string): Promise<CustomerRow | undefined> {
  const at = canonicalAddress.lastIndexOf('@');
  return db
    .selectFrom('customers')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where(sql<string>`split_part(uma_address, '@', 1)`, '=', canonicalAddress.slice(0, at))
    .where(sql<string>`lower(split_part(uma_address, '@', 2))`, '=', canonicalAddress.slice(at + 1))
    .executeTakeFirst();
}

export async function findCustomerForUpdate(db: Db, platformId: string, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateCustomer(db: Db, id: string, changes: CustomerChanges, at: Date): Promise<CustomerRow> {
  const { profile, ...rest } = changes;
  return db
    .updateTable('customers')
    .set({ ...rest, ...(profile === undefined ? {} : { profile: JSON.stringify(profile) }), updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves a KYC or KYB status, only from the status the caller saw (none: null); undefined when it had changed meanwhile. */
export async function moveVerificationStatus(
  db: Db,
  id: string,
  column: 'kyc_status' | 'kyb_status',
  from: NonNullable<CustomerRow['kyc_status']> | null,
  to: NonNullable<CustomerRow['kyc_status']>,
  at: Date,
): Promise<CustomerRow | undefined> {
  return db
    .updateTable('customers')
    .set({ [column]: to, updated_at: at })
    .where('id', '=', id)
    .where(column, from === null ? 'is' : '=', from)
    .returningAll()
    .executeTakeFirst();
}

export async function softDeleteCustomer(db: Db, id: string, at: Date): Promise<CustomerRow> {
  return db.updateTable('customers').set({ is_deleted: true, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A list's filters as query parameters: present or absent, each is the shape of the query. */
type ListParams = Omit<CustomerFilters, 'isIncludingDeleted' | keyof TimeWindow> & TimeWindow & { platformId: string; isDeleted?: false };

/**
 * Counts kept by the database (migration 0018): without the deleted ones or with them, unfiltered
 * or by one of these, with one time bound or none. An updated_at bound is planned per call: how
 * many customers it holds decides which index serves the page.
 */
const plan: ListPlan<ListParams> = {
  scope: { isDeleted: 'is_deleted' },
  by: { customerType: 'customer_type', region: 'region', currency: 'currency', kycStatus: 'kyc_status', kybStatus: 'kyb_status' },
  windows: TIME_WINDOW_BOUNDS,
  plannedPerCall: ['updatedAfter', 'updatedBefore'],
};

/** Every column of a customer (the compiler checks that none is missing). */
const COLUMNS = [
  'id', 'platform_id', 'platform_customer_id', 'customer_type', 'region', 'currencies', 'embedded_wallet_currencies', 'email', 'phone_number',
  'uma_address', 'kyc_status', 'kyb_status', 'profile', 'identifier', 'is_deleted', 'created_at', 'updated_at',
] as const satisfies readonly (keyof CustomerTable)[];
const everyColumn: Exclude<keyof CustomerTable, (typeof COLUMNS)[number]> extends never ? true : never = true;

/**
 * The customers a list reads: the table, or, for one currency, the customers holding it as their
 * currency rows give them (migration 0018), in that table's keyset order: the page reads its own
 * rows whether a few customers hold the currency or most. Its id and created_at are the currency
 * row's, so the list's order and cursor are that index's.
 */
function customersOf(db: Db, p: ListParams): SelectQueryBuilder<Database, 'customers', object> {
  if (p.currency === undefined) return db.selectFrom('customers');
  const holding = db
    .selectFrom('customer_currencies as cc')
    .innerJoin('customers as c', 'c.id', 'cc.customer_id')
    .where('cc.platform_id', '=', p.platformId)
    .where('cc.currency', '=', p.currency)
    .select([...COLUMNS.filter((c) => c !== 'id' && c !== 'created_at').map((c) => `c.${c}` as const), 'cc.customer_id as id', 'cc.created_at as created_at']);
  // The same columns as the table's, under its name: the rest of the list's query cannot tell them apart.
  return db.selectFrom(holding.as('customers')) as unknown as SelectQueryBuilder<Database, 'customers', object>;
}

const customersPage = pageQuery(
  'customers',
  (db, p: ListParams) => {
    let q = customersOf(db, p).where('platform_id', '=', p.platformId);
    if (p.isDeleted !== undefined) q = q.where('is_deleted', '=', p.isDeleted);
    if (p.platformCustomerId !== undefined) q = q.where('platform_customer_id', '=', p.platformCustomerId);
    if (p.customerType !== undefined) q = q.where('customer_type', '=', p.customerType);
    if (p.region !== undefined) q = q.where('region', '=', p.region);
    if (p.umaAddress !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['uma_address']), '=', p.umaAddress));
    if (p.kycStatus !== undefined) q = q.where('kyc_status', '=', p.kycStatus);
    if (p.kybStatus !== undefined) q = q.where('kyb_status', '=', p.kybStatus);
    return inTimeWindow(q, 'customers', p);
  },
  (s) => s.selectAll(),
  plan,
);

export async function listCustomers(db: Db, platformId: string, f: CustomerFilters, page: PageRequest): Promise<PageRows<CustomerRow>> {
  return customersPage(
    db,
    {
      platformId,
      isDeleted: f.isIncludingDeleted === true ? undefined : false,
      platformCustomerId: f.platformCustomerId,
      customerType: f.customerType,
      region: f.region,
      currency: f.currency,
      umaAddress: f.umaAddress?.toLowerCase(),
      kycStatus: f.kycStatus,
      kybStatus: f.kybStatus,
      ...timeWindow(f),
    },
    page,
  );
}

/** Identifiers not sealed yet (stored by an earlier version); none once they have been sealed. */
export async function listUnsealedIdentifiers(db: Db): Promise<{ id: string; identifier: string }[]> {
  const rows = await db.selectFrom('customers').select(['id', 'identifier']).where('identifier', 'not like', `${SEALED_PREFIX}%`).execute();
  return rows.flatMap((r) => (r.identifier === null ? [] : [{ id: r.id, identifier: r.identifier }]));
}

/** Businesses whose tax id is stored in clear (by an earlier version); none once they have been sealed. */
export async function listUnsealedTaxIds(db: Db): Promise<{ id: string; profile: BusinessProfile }[]> {
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'profile'])
    .where('customer_type', '=', 'BUSINESS')
    .where(sql<string>`profile #>> '{businessInfo,taxId}'`, 'not like', `${SEALED_PREFIX}%`)
    .execute();
  return rows.map((r) => ({ id: r.id, profile: r.profile as BusinessProfile }));
}

/** Replaces the stored profile, as it is (no change of `updated_at`: nothing the API shows changed). */
export async function setProfile(db: Db, id: string, profile: BusinessProfile): Promise<void> {
  await db.updateTable('customers').set({ profile: JSON.stringify(profile) }).where('id', '=', id).execute();
}

export async function setIdentifier(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('customers').set({ identifier: sealed }).where('id', '=', id).execute();
}
