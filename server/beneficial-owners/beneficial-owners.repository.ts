import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery } from '../db/paginate.ts';
import type { BeneficialOwnerTable } from '../db/schema.ts';
import { SEALED_PREFIX } from '../shared/keyring.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type BeneficialOwnerRow = Selectable<BeneficialOwnerTable>;
export type NewBeneficialOwnerRow = Omit<Insertable<BeneficialOwnerTable>, 'personal_info'> & { personal_info: BeneficialOwnerRow['personal_info'] };
export type BeneficialOwnerChanges = Partial<Pick<BeneficialOwnerRow, 'roles' | 'ownership_percentage' | 'identifier' | 'kyc_status' | 'personal_info'>>;

export async function insertBeneficialOwner(db: Db, row: NewBeneficialOwnerRow): Promise<BeneficialOwnerRow> {
  return db
    .insertInto('beneficial_owners')
    .values({ ...row, personal_info: JSON.stringify(row.personal_info) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findBeneficialOwner(db: Db, platformId: string, id: string): Promise<BeneficialOwnerRow | undefined> {
  return db.selectFrom('beneficial_owners').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

/** Applies the changes; a KYC status change only from `kycFrom`, so a concurrent change is noticed. */
export async function updateBeneficialOwner(db: Db, id: string, changes: BeneficialOwnerChanges, kycFrom: BeneficialOwnerRow['kyc_status'], at: Date): Promise<BeneficialOwnerRow | undefined> {
  const { personal_info, ...rest } = changes;
  return db
    .updateTable('beneficial_owners')
    .set({ ...rest, ...(personal_info === undefined ? {} : { personal_info: JSON.stringify(personal_info) }), updated_at: at })
    .where('id', '=', id)
    .where('kyc_status', '=', kycFrom)
    .returningAll()
    .executeTakeFirst();
}

const ownersPage = pageQuery(
  'beneficial_owners',
  (db, p: { platformId: string; customerId?: string }) => {
    const q = db.selectFrom('beneficial_owners').where('platform_id', '=', p.platformId);
    return p.customerId === undefined ? q : q.where('customer_id', '=', p.customerId);
  },
  (s) => s.selectAll(),
  {},
);

export async function listBeneficialOwners(db: Db, platformId: string, filters: { customerId?: string }, page: PageRequest): Promise<PageRows<BeneficialOwnerRow>> {
  return ownersPage(db, { platformId, customerId: filters.customerId }, page);
}

/** Identifiers not sealed yet (stored by an earlier version); none once they have been sealed. */
export async function listUnsealedIdentifiers(db: Db): Promise<Pick<BeneficialOwnerRow, 'id' | 'identifier'>[]> {
  return db.selectFrom('beneficial_owners').select(['id', 'identifier']).where('identifier', 'not like', `${SEALED_PREFIX}%`).execute();
}

export async function setIdentifier(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('beneficial_owners').set({ identifier: sealed }).where('id', '=', id).execute();
}
