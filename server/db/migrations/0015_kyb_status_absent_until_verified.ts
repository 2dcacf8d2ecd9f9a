// KYB has three values, PENDING, APPROVED and REJECTED, as the product specification gives them: a
// business has no kybStatus until its first verification's outcome. Businesses stored with the
// UNVERIFIED an earlier version gave them have none.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update customers set kyb_status = null where kyb_status = 'UNVERIFIED'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update customers set kyb_status = 'UNVERIFIED' where customer_type = 'BUSINESS' and kyb_status is null`.execute(db);
}
