import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { inTimeWindow, pageQuery, TIME_WINDOW_BOUNDS, timeWindow, type ListPlan, type TimeWindow } from '../db/paginate.ts';
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

export type LiveToken = Pick<TokenRow, 'id' | 'platform_id' | 'permissions' | 'secret_hash'>;

/** The live token of `clientId`; none asked for when undefined (the query still runs, costing the same). */
export async function findLiveToken(db: Db, clientId: string | undefined): Promise<LiveToken | undefined> {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'platform_id', 'permissions', 'secret_hash'])
    .where((eb) => (clientId === undefined ? eb.lit(false) : eb.and([eb('client_id', '=', clientId), eb('deleted_at', 'is', null)])))
    .executeTakeFirst();
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

/** Counts kept by the database (migration 0018): the live tokens, with one time bound or none; an updated_at bound planned per call. */
const plan: ListPlan<TimeWindow & { platformId: string; name?: string }> = { windows: TIME_WINDOW_BOUNDS, plannedPerCall: ['updatedAfter', 'updatedBefore'] };

const tokensPage = pageQuery(
  'api_tokens',
  (db, p: TimeWindow & { platformId: string; name?: string }) => {
    let q = db.selectFrom('api_tokens').where('platform_id', '=', p.platformId).where('deleted_at', 'is', null);
    if (p.name !== undefined) q = q.where('name', '=', p.name);
    return inTimeWindow(q, 'api_tokens', p);
  },
  (s) => s.selectAll(),
  plan,
);

export async function listTokens(db: Db, platformId: string, filters: TokenFilters, page: PageRequest): Promise<PageRows<TokenRow>> {
  return tokensPage(db, { platformId, name: filters.name, ...timeWindow(filters) }, page);
}

/** The deleted token's clientId, or undefined when there was no such live token. */
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
