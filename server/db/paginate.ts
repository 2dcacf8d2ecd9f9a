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
  const counted = await filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  let rows = select(filtered);
  if (page.after !== undefined) {
    const after = sql<boolean>`(${created}, ${id}) ${sql.raw(order === 'desc' ? '<' : '>')} (${page.after.createdAt}, ${page.after.id})`;
    rows = rows.where(after);
  }
  const result = await rows.orderBy(created, order).orderBy(id, order).limit(page.limit + 1).execute();
  return { rows: result, total: Number(counted.n) };
}
