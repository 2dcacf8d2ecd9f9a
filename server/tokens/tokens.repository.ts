import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { paginate } from '../db/paginate.ts';
import type { ApiTokenTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type TokenRow = Selectable<ApiTokenTable>;

export interface TokenFilters {
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

export async function insertToken(db: Db, row: Omit<TokenRow, 'deleted_at'>): Promise<TokenRow> {
  return db.insertInto('api_tokens').values({ ...row, deleted_at: null }).returningAll().executeTakeFirstOrThrow();
}

export async function findLiveTokenByClientId(db: Db, clientId: string): Promise<TokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('client_id', '=', clientId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Deleted tokens too: a clientId is never reused. */
export async function findTokenByClientId(db: Db, clientId: string): Promise<TokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function findToken(db: Db, platformId: string, id: string): Promise<TokenRow | undefined> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listTokens(db: Db, platformId: string, filters: TokenFilters, page: PageRequest): Promise<PageRows<TokenRow>> {
  let q = db.selectFrom('api_tokens').where('platform_id', '=', platformId).where('deleted_at', 'is', null);
  if (filters.name !== undefined) q = q.where('name', '=', filters.name);
  if (filters.createdAfter !== undefined) q = q.where('created_at', '>=', new Date(filters.createdAfter));
  if (filters.createdBefore !== undefined) q = q.where('created_at', '<=', new Date(filters.createdBefore));
  if (filters.updatedAfter !== undefined) q = q.where('updated_at', '>=', new Date(filters.updatedAfter));
  if (filters.updatedBefore !== undefined) q = q.where('updated_at', '<=', new Date(filters.updatedBefore));
  return paginate(q, 'api_tokens', page, (s) => s.selectAll());
}

/** The deleted token's clientId, or undefined when there was no live token to delete. */
export async function softDeleteToken(db: Db, platformId: string, id: string, at: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('api_tokens')
    .set({ deleted_at: at, updated_at: at })
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('client_id')
    .executeTakeFirst();
  return row?.client_id;
}
