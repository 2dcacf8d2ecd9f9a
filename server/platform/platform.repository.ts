import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PlatformTable } from '../db/schema.ts';

export type PlatformRow = Selectable<PlatformTable>;

export async function findAnyPlatform(db: Db): Promise<PlatformRow | undefined> {
  return db.selectFrom('platforms').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
}

export async function findPlatform(db: Db, id: string): Promise<PlatformRow | undefined> {
  return db.selectFrom('platforms').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPlatform(db: Db, row: PlatformRow): Promise<PlatformRow> {
  return db
    .insertInto('platforms')
    .values({ ...row, supported_currencies: JSON.stringify(row.supported_currencies) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type PlatformChanges = Partial<Pick<PlatformRow, 'name' | 'uma_domain' | 'webhook_endpoint' | 'webhook_signing_secret' | 'supported_currencies'>>;

export async function updatePlatform(db: Db, id: string, changes: PlatformChanges, at: Date): Promise<PlatformRow> {
  const { supported_currencies, ...rest } = changes;
  return db
    .updateTable('platforms')
    .set({ ...rest, ...(supported_currencies === undefined ? {} : { supported_currencies: JSON.stringify(supported_currencies) }), updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
