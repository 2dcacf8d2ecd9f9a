// Keyset pagination shared by every repository's list: newest first, ties broken by id, plus the
// total number of matches. `filtered` must already carry the list's WHERE clauses.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../http/pagination.ts';
import type { Database } from './schema.ts';

export async function paginate<TB extends keyof Database, Row extends { created_at: Date; id: string }>(
  filtered: SelectQueryBuilder<Database, TB, object>,
  table: TB,
  page: PageRequest,
): Promise<{ rows: Row[]; total: number }> {
  const created = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  const counted = await filtered.select(sql<string>`count(*)`.as('n')).executeTakeFirst();
  let rows = filtered.selectAll(table);
  if (page.after !== undefined) {
    rows = rows.where(sql<boolean>`(${created}, ${id}) < (${page.after.createdAt}, ${page.after.id})`);
  }
  const result = await rows.orderBy(created, 'desc').orderBy(id, 'desc').limit(page.limit + 1).execute();
  return { rows: result as unknown as Row[], total: Number((counted as { n?: string } | undefined)?.n ?? 0) };
}
