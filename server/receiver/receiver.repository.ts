// Receiver lookups: what a receiver accepts, kept 15 minutes for the quote that follows.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ReceiverLookupTable } from '../db/schema.ts';

export type LookupRow = Selectable<ReceiverLookupTable>;
export type NewLookupRow = Omit<Insertable<ReceiverLookupTable>, 'required_fields'> & { required_fields: LookupRow['required_fields'] };

export async function insertLookup(db: Db, row: NewLookupRow): Promise<LookupRow> {
  return db
    .insertInto('receiver_lookups')
    .values({ ...row, required_fields: JSON.stringify(row.required_fields) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findLookup(db: Db, platformId: string, id: string): Promise<LookupRow | undefined> {
  return db.selectFrom('receiver_lookups').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}
