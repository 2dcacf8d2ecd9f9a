import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { paginate } from '../db/paginate.ts';
import type { BeneficialOwnerTable } from '../db/schema.ts';
import type { PageRequest } from '../http/pagination.ts';

export type BeneficialOwnerRow = Selectable<BeneficialOwnerTable>;
export type NewBeneficialOwnerRow = Omit<Insertable<BeneficialOwnerTable>, 'personal_info'> & { personal_info: Record<string, unknown> };
export type BeneficialOwnerChanges = Partial<Pick<BeneficialOwnerRow, 'roles' | 'ownership_percentage' | 'identifier' | 'kyc_status'>> & {
  personal_info?: Record<string, unknown>;
};

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

export async function updateBeneficialOwner(db: Db, id: string, changes: BeneficialOwnerChanges, at: Date): Promise<BeneficialOwnerRow> {
  const { personal_info, ...rest } = changes;
  return db
    .updateTable('beneficial_owners')
    .set({ ...rest, ...(personal_info === undefined ? {} : { personal_info: JSON.stringify(personal_info) }), updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listBeneficialOwners(db: Db, platformId: string, filters: { customerId?: string }, page: PageRequest) {
  let q = db.selectFrom('beneficial_owners').where('platform_id', '=', platformId);
  if (filters.customerId !== undefined) q = q.where('customer_id', '=', filters.customerId);
  return paginate<'beneficial_owners', BeneficialOwnerRow>(q, 'beneficial_owners', page);
}
