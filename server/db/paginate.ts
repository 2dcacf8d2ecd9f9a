// Keyset pagination shared by every repository's list: newest first (or oldest first where the
// list offers `sortOrder`), ties broken by id, plus the total number of matches. `filtered`
// builds the list's WHERE clauses from its parameters, `select` picks the columns; both are
// query templates (query-template.ts), built once per shape of the filters.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest, PageRows } from '../shared/page.ts';
import type { Db } from './database.ts';
import { queryTemplate, type TemplateParams } from './query-template.ts';
import type { Database } from './schema.ts';

export type SortDirection = 'desc' | 'asc';

type Listable = { [T in keyof Database]: Database[T] extends { created_at: unknown; id: string } ? T : never }[keyof Database];

/** The page's own parameters, next to the list's filters. */
interface Position {
  pageLimit: number;
  pageAfterCreatedAt?: Date;
  pageAfterId?: string;
}

export type ListQuery<P, Row> = (db: Db, filters: P, page: PageRequest, order?: SortDirection) => Promise<PageRows<Row>>;

export function pageQuery<TB extends Listable, P extends TemplateParams, Row extends { created_at: Date; id: string }>(
  table: TB,
  filtered: (db: Db, p: P) => SelectQueryBuilder<Database, TB, object>,
  select: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, Row>,
): ListQuery<P, Row> {
  const created = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  const count = (db: Db, p: P) => filtered(db, p).select((eb) => eb.fn.countAll<string>().as('n'));
  // The total rides on every row as a scalar subquery: one round trip for the page and its count.
  const rowsOf = queryTemplate<P & Position, Row & { total_matches: string | number }, SortDirection>((db, p, order) => {
    let rows = select(filtered(db, p)).select(() => count(db, p).as('total_matches'));
    if (p.pageAfterId !== undefined) {
      rows = rows.where(sql<boolean>`(${created}, ${id}) ${sql.raw(order === 'desc' ? '<' : '>')} (${p.pageAfterCreatedAt}, ${p.pageAfterId})`);
    }
    return rows.orderBy(created, order).orderBy(id, order).limit(p.pageLimit);
  });
  const countOf = queryTemplate<P, { n: string }>((db, p) => count(db, p));
  return async (db, filters, page, order = 'desc') => {
    const position: Position = { pageLimit: page.limit + 1, pageAfterCreatedAt: page.after?.createdAt, pageAfterId: page.after?.id };
    const { rows } = await db.executeQuery(rowsOf(db, { ...filters, ...position }, order));
    const first = rows[0];
    // A page past the last match has no row to carry the total: only then is it counted on its own.
    const total = first !== undefined ? Number(first.total_matches) : page.after === undefined ? 0 : Number((await db.executeQuery(countOf(db, filters))).rows[0]?.n);
    // Cleared in place, not copied away (a copy of each row was 6% of a list's CPU): JSON drops an
    // undefined value, so a mapper that spreads a row still cannot leak it.
    for (const row of rows) (row as { total_matches?: unknown }).total_matches = undefined;
    return { rows: rows as unknown as Row[], total };
  };
}

/** A filter's date-time as the Date its parameter sends, absent when the filter is. */
export const dateOrUndefined = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));

/** The created and updated date-time filters several lists share, as their parameters. */
export interface TimeWindow {
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

export function timeWindow(f: { createdAfter?: string; createdBefore?: string; updatedAfter?: string; updatedBefore?: string }): TimeWindow {
  return {
    createdAfter: dateOrUndefined(f.createdAfter),
    createdBefore: dateOrUndefined(f.createdBefore),
    updatedAfter: dateOrUndefined(f.updatedAfter),
    updatedBefore: dateOrUndefined(f.updatedBefore),
  };
}

type Dated = { [T in Listable]: Database[T] extends { updated_at: unknown } ? T : never }[Listable];

/** `q` narrowed to the window's present bounds, all inclusive. */
export function inTimeWindow<TB extends Dated>(q: SelectQueryBuilder<Database, TB, object>, table: TB, p: TimeWindow): SelectQueryBuilder<Database, TB, object> {
  const created = sql.ref<Date>(`${table}.created_at`);
  const updated = sql.ref<Date>(`${table}.updated_at`);
  if (p.createdAfter !== undefined) q = q.where(created, '>=', p.createdAfter);
  if (p.createdBefore !== undefined) q = q.where(created, '<=', p.createdBefore);
  if (p.updatedAfter !== undefined) q = q.where(updated, '>=', p.updatedAfter);
  if (p.updatedBefore !== undefined) q = q.where(updated, '<=', p.updatedBefore);
  return q;
}
