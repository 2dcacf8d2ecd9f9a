import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery, type ListPlan } from '../db/paginate.ts';
import type { VerificationTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type VerificationRow = Selectable<VerificationTable>;

export interface VerificationFilters {
  customerId?: string;
  verificationStatus?: VerificationRow['verification_status'];
}

export async function insertVerification(db: Db, row: VerificationRow): Promise<VerificationRow> {
  return db
    .insertInto('verifications')
    .values({ ...row, errors: JSON.stringify(row.errors) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves a verification on, only from the status the caller saw; undefined when it had changed meanwhile. */
export async function moveVerification(
  db: Db,
  id: string,
  from: VerificationRow['verification_status'],
  changes: Pick<VerificationRow, 'verification_status' | 'errors'>,
  at: Date,
): Promise<VerificationRow | undefined> {
  return db
    .updateTable('verifications')
    .set({ verification_status: changes.verification_status, errors: JSON.stringify(changes.errors), updated_at: at })
    .where('id', '=', id)
    .where('verification_status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

export async function findLatestVerification(db: Db, customerId: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findVerification(db: Db, platformId: string, id: string): Promise<VerificationRow | undefined> {
  return db.selectFrom('verifications').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

/** Counts kept by the database (migration 0018): unfiltered, or by status alone. */
const plan: ListPlan<VerificationFilters & { platformId: string }> = { by: { verificationStatus: 'verification_status' } };

const verificationsPage = pageQuery(
  'verifications',
  (db, p: VerificationFilters & { platformId: string }) => {
    let q = db.selectFrom('verifications').where('platform_id', '=', p.platformId);
    if (p.customerId !== undefined) q = q.where('customer_id', '=', p.customerId);
    if (p.verificationStatus !== undefined) q = q.where('verification_status', '=', p.verificationStatus);
    return q;
  },
  (s) => s.selectAll(),
  plan,
);

export async function listVerifications(db: Db, platformId: string, f: VerificationFilters, page: PageRequest): Promise<PageRows<VerificationRow>> {
  return verificationsPage(db, { platformId, customerId: f.customerId, verificationStatus: f.verificationStatus }, page);
}
