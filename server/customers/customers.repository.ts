import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { violatedUniqueConstraint } from '../db/errors.ts';
import { inTimeWindow, pageQuery, timeWindow, type TimeWindow } from '../db/paginate.ts';
import { firstRow, queryTemplate } from '../db/query-template.ts';
import type { BusinessProfile, CustomerTable, IndividualProfile } from '../db/schema.ts';
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

const customersPage = pageQuery(
  'customers',
  (db, p: ListParams) => {
    let q = db.selectFrom('customers').where('platform_id', '=', p.platformId);
    if (p.isDeleted !== undefined) q = q.where('is_deleted', '=', p.isDeleted);
    if (p.platformCustomerId !== undefined) q = q.where('platform_customer_id', '=', p.platformCustomerId);
    if (p.customerType !== undefined) q = q.where('customer_type', '=', p.customerType);
    if (p.region !== undefined) q = q.where('region', '=', p.region);
    if (p.currency !== undefined) q = q.where((eb) => eb(eb.val(p.currency), '=', eb.fn.any('currencies')));
    if (p.umaAddress !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['uma_address']), '=', p.umaAddress));
    if (p.kycStatus !== undefined) q = q.where('kyc_status', '=', p.kycStatus);
    if (p.kybStatus !== undefined) q = q.where('kyb_status', '=', p.kybStatus);
    return inTimeWindow(q, 'customers', p);
  },
  (s) => s.selectAll(),
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
