// Keyset pagination shared by every repository's list: newest first (or oldest first where the
// list offers `sortOrder`), ties broken by id, plus the total number of matches. `filtered`
// builds the list's WHERE clauses from its parameters, `select` picks the columns; both are
// query templates (query-template.ts), built once per shape of the filters.
//
// What a page costs does not grow with the table: its rows come from an index in keyset order
// (migration 0018 has one per filter), and the total is paid for once per walk through the list.
// The first page reads it, in the same statement and snapshot as its rows, from the counts the
// database keeps (`list_counts`) when the list's `plan` declares them (only lists migration 0018
// counts) and the request has at most one of its counted filters; otherwise it counts the
// matches, through the index of the filter that names them (a customer's transactions: what they
// cost, not what the table holds). The cursor carries that total to the next pages, which count
// nothing: a walk's totalCount is the number of matches when its first page was read
// (spec/guides/pagination.md).
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { PageRequest, PageRows } from '../shared/page.ts';
import type { Db } from './database.ts';
import { PLANNED_PER_CALL } from './prepared-statements.ts';
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

/**
 * How the database serves a list's filters. Counts: which shapes of the filters it keeps a count
 * of (migration 0018's keys for the table): `fixed`, the pair every key of this list starts with;
 * `scope`, parameters whose pair a key has when they are present (customers without the deleted
 * ones); `by`, the filters kept one at a time. The names are the keys' (the columns'), the values
 * the parameters' as text. A shape with another filter, or two of `by`, is counted instead.
 */
export interface ListPlan<P> {
  fixed?: string;
  scope?: { readonly [K in keyof P]?: string };
  by?: { readonly [K in keyof P]?: string };
  /**
   * Time bounds: the column and the comparison of the rows outside the bound (`createdBefore`:
   * `['created_at', '>']`). A counted shape with one of them is counted from both ends: its matches
   * when they are few, else the kept count less the rows beyond the bound when those are few, so
   * "everything before an hour ago" costs what the last hour holds. Only a bound that cuts a large
   * list into two large parts counts its matches.
   */
  windows?: { readonly [K in keyof P]?: readonly [column: 'created_at' | 'updated_at', outside: '<' | '>'] };
  /**
   * Filters whose best plan depends on their value, so that a query with one of them is planned
   * for each call (prepared-statements.ts): a currency a few customers hold is read from its GIN
   * index, one most hold by walking the list's order; likewise an updated_at bound.
   */
  plannedPerCall?: readonly (keyof P)[];
}

/** How far a bound's probes count before they give up on that end. */
const PROBE = 1000;

export type ListQuery<P, Row> = (db: Db, filters: P, page: PageRequest, order?: SortDirection) => Promise<PageRows<Row>>;

/** With `counted` here, the page's rows carry the list's total; without it they do not (a cursor brought it). */
type Variant = SortDirection | `${SortDirection} counted`;

/** A list whose counts the database keeps (a platform's: its filters name the platform), or one counted on each first page. */
export function pageQuery<TB extends Listable, P extends TemplateParams & { platformId: string }, Row extends { created_at: Date; id: string }>(
  table: TB,
  filtered: (db: Db, p: P) => SelectQueryBuilder<Database, TB, object>,
  select: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, Row>,
  plan: ListPlan<NoInfer<P>>,
): ListQuery<P, Row>;
export function pageQuery<TB extends Listable, P extends TemplateParams, Row extends { created_at: Date; id: string }>(
  table: TB,
  filtered: (db: Db, p: P) => SelectQueryBuilder<Database, TB, object>,
  select: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, Row>,
): ListQuery<P, Row>;
export function pageQuery<TB extends Listable, P extends TemplateParams, Row extends { created_at: Date; id: string }>(
  table: TB,
  filtered: (db: Db, p: P) => SelectQueryBuilder<Database, TB, object>,
  select: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, Row>,
  plan?: ListPlan<P>,
): ListQuery<P, Row> {
  const created = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  const matches = (db: Db, p: P) => sql<string>`(${filtered(db, p).select((eb) => eb.fn.countAll<string>().as('n'))})`;
  /**
   * Up to PROBE of the rows of `q`, cheap however many there are: read in the order of the bound's
   * column, so that even a generic plan walks its index from the bound rather than the table.
   */
  const probe = (q: SelectQueryBuilder<Database, TB, object>, column: string) =>
    sql<string>`(select count(*) from (${q.select(sql.lit(1).as('one')).orderBy(sql.ref(`${table}.${column}`)).limit(sql.lit(PROBE))}) as probe)`;
  const total = (db: Db, p: P): RawBuilder<string> => {
    if (plan === undefined) return matches(db, p);
    const window = boundOf(plan, p);
    const rest = window === undefined ? p : ({ ...p, [window.param]: undefined } as P);
    const key = countKey(plan, rest);
    if (key === undefined) return matches(db, p);
    const kept = sql<string>`(${db
      .selectFrom('list_counts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('n'), sql.lit(0)).as('n'))
      .where('platform_id', '=', (p as P & { platformId: string }).platformId)
      .where('list', '=', sql.lit(table))
      .where('key', '=', key)})`;
    if (window === undefined) return kept;
    const beyond = probe(filtered(db, rest).where(sql.ref(`${table}.${window.column}`), window.outside, window.value), window.column);
    return sql<string>`(select case when w.n < ${sql.lit(PROBE)} then w.n when ${beyond} < ${sql.lit(PROBE)} then ${kept} - ${beyond} else ${matches(db, p)} end
      from (select ${probe(filtered(db, p), window.column)} as n) as w)`;
  };
  // The total rides on every row as a scalar subquery: one round trip for the page and its count.
  const rowsOf = queryTemplate<P & Position, Row & { total_matches?: string | number }, Variant>((db, p, variant) => {
    const order: SortDirection = variant.startsWith('asc') ? 'asc' : 'desc';
    let rows = select(filtered(db, p));
    if (variant.endsWith('counted')) rows = rows.select(() => total(db, filtersOf(p)).as('total_matches'));
    if (p.pageAfterId !== undefined) {
      rows = rows.where(sql<boolean>`(${created}, ${id}) ${sql.raw(order === 'desc' ? '<' : '>')} (${p.pageAfterCreatedAt}, ${p.pageAfterId})`);
    }
    rows = rows.orderBy(created, order).orderBy(id, order).limit(p.pageLimit);
    return (plan?.plannedPerCall ?? []).some((param) => p[param] !== undefined) ? rows.modifyEnd(sql.raw(PLANNED_PER_CALL)) : rows;
  });
  const countOf = queryTemplate<P, { n: string | number }>((db, p) => db.selectNoFrom(total(db, p).as('n')));
  return async (db, filters, page, order = 'desc') => {
    const position: Position = { pageLimit: page.limit + 1, pageAfterCreatedAt: page.after?.createdAt, pageAfterId: page.after?.id };
    // A cursor brings its walk's total; a first page, or a cursor issued before cursors had one, reads it.
    const carried = page.after === undefined ? undefined : page.total;
    const { rows } = await db.executeQuery(rowsOf(db, { ...filters, ...position }, carried === undefined ? `${order} counted` : order));
    const first = rows[0];
    // A page without rows has none to carry the total: a first page has no matches then, and an old cursor's count runs on its own.
    const totalCount =
      carried ?? (first !== undefined ? Number(first.total_matches) : page.after === undefined ? 0 : Number((await db.executeQuery(countOf(db, filters))).rows[0]?.n));
    // Cleared in place, not copied away (a copy of each row showed in a list's profile: bench/README.md): JSON drops an
    // undefined value, so a mapper that spreads a row still cannot leak it.
    if (carried === undefined) for (const row of rows) row.total_matches = undefined;
    return { rows: rows as unknown as Row[], total: totalCount };
  };
}

const POSITION: ReadonlySet<string> = new Set(['pageLimit', 'pageAfterCreatedAt', 'pageAfterId']);

/** The list's filters among a page query's parameters. */
const filtersOf = <P extends object>(p: P & Position): P => Object.fromEntries(Object.entries(p).filter(([name]) => !POSITION.has(name))) as P;

/** The one time bound present, when it is the only one. */
function boundOf<P extends object>(counted: ListPlan<P>, p: P): { param: string; column: string; outside: '<' | '>'; value: unknown } | undefined {
  const present = Object.entries(counted.windows ?? {}).filter(([param]) => (p as Record<string, unknown>)[param] !== undefined);
  const [only] = present;
  if (only === undefined || present.length > 1) return undefined;
  const [param, [column, outside]] = only as [string, readonly [string, '<' | '>']];
  return { param, column, outside, value: (p as Record<string, unknown>)[param] };
}

/**
 * The `list_counts` key of this shape of the filters, as SQL over its parameters (their values are
 * the slots of a template), or undefined when the shape is not counted.
 */
function countKey<P extends object>(counted: ListPlan<P>, p: P): RawBuilder<string> | undefined {
  const scope: Readonly<Record<string, string | undefined>> = counted.scope ?? {};
  const by: Readonly<Record<string, string | undefined>> = counted.by ?? {};
  const pairs: RawBuilder<string>[] = counted.fixed === undefined ? [] : [sql.lit(counted.fixed)];
  let filter: RawBuilder<string> | undefined;
  const named = (name: string, value: unknown) => sql<string>`${sql.lit(`${name}=`)} || cast(${value} as text)`;
  for (const [param, value] of Object.entries(p)) {
    if (value === undefined || param === 'platformId') continue;
    const inScope = scope[param];
    const byName = by[param];
    if (inScope !== undefined) pairs.push(named(inScope, value));
    else if (byName !== undefined && filter === undefined) filter = named(byName, value);
    else return undefined;
  }
  if (filter !== undefined) pairs.push(filter);
  return pairs.length === 0 ? sql.lit('') : sql<string>`${sql.join(pairs, sql` || '&' || `)}`;
}

/** The bounds of a TimeWindow, for a list's `counted.windows`. */
export const TIME_WINDOW_BOUNDS = {
  createdAfter: ['created_at', '<'],
  createdBefore: ['created_at', '>'],
  updatedAfter: ['updated_at', '<'],
  updatedBefore: ['updated_at', '>'],
} as const satisfies Record<keyof TimeWindow, readonly ['created_at' | 'updated_at', '<' | '>']>;

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
