import type { Db } from '../db/database.ts';
import type { TransactionTable } from '../db/schema.ts';
import type { Insertable } from 'kysely';

type NewTransaction = Omit<Insertable<TransactionTable>, 'details'> & { details: object };

export async function insertTransaction(db: Db, row: NewTransaction): Promise<void> {
  await db.insertInto('transactions').values({ ...row, details: JSON.stringify(row.details) }).execute();
}

/** The platform's own reference of a customer, shown on the customer's transactions. */
export async function findPlatformCustomerId(db: Db, platformId: string, customerId: string): Promise<string | undefined> {
  const row = await db.selectFrom('customers').select('platform_customer_id').where('platform_id', '=', platformId).where('id', '=', customerId).executeTakeFirst();
  return row?.platform_customer_id;
}
