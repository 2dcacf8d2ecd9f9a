// Keyset pagination shared by every repository's list: newest first (or oldest first where the
// list offers `sortOrder`), ties broken by id, plus the total number of matches. `filtered`
// carries the list's WHERE clauses; `select` picks the columns.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest, PageRows } from '../shared/page.ts';
import type { Database } from './schema.ts';

export type SortDirection = 'desc' | 'asc';

type Listable = { [T in keyof Database]: Database[T] extends { created_at: unknown; id: string } ? T : never }[keyof Database];

export async function paginate<TB extends Listable, Row extends { created_at: Date; id: string }>(
  filtered: SelectQueryBuilder<Database, TB, object>,
  table: TB,
  page: PageRequest,
  select: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, Row>,
  order: SortDirection = 'desc',
): Promise<PageRows<Row>> {
  const created = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  const count = filtered.select((eb) => eb.fn.countAll<string>().as('n'));
  // The total rides on every row as a scalar subquery: one round trip for the page and its count.
  let rows = select(filtered).select(() => count.as('total_matches'));
  if (page.after !== undefined) {
    const after = sql<boolean>`(${created}, ${id}) ${sql.raw(order === 'desc' ? '<' : '>')} (${page.after.createdAt}, ${page.after.id})`;
    rows = rows.where(after);
  }
  const result = await rows.orderBy(created, order).orderBy(id, order).limit(page.limit + 1).execute();
  const first = result[0] as { total_matches?: string | number } | undefined;
  // A page past the last match has no row to carry the total: only then is it counted on its own.
  const total = first !== undefined ? Number(first.total_matches) : page.after === undefined ? 0 : Number((await count.executeTakeFirstOrThrow()).n);
  return { rows: result.map(({ total_matches: _, ...row }) => row as unknown as Row), total };
}
