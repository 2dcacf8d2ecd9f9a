// Opaque keyset cursors: the position (createdAt, id) of the last item of a page plus a digest of
// the filters, base64url-encoded JSON. A cursor used with other filters is rejected.
import { createHash } from 'node:crypto';
import { badRequest } from './errors.ts';

export interface PageRequest {
  limit: number;
  after: { createdAt: Date; id: string } | undefined;
  filterDigest: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

const digest = (filters: unknown) => createHash('sha256').update(JSON.stringify(filters ?? {})).digest('base64url').slice(0, 16);

export function pageRequest(query: { limit?: number; cursor?: string }, filters: unknown): PageRequest {
  const filterDigest = digest(filters);
  const limit = query.limit ?? 20;
  if (query.cursor === undefined) return { limit, after: undefined, filterDigest };
  try {
    const raw = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown; f?: unknown };
    const createdAt = new Date(String(raw.c));
    if (typeof raw.i !== 'string' || Number.isNaN(createdAt.getTime()) || raw.f !== filterDigest) throw new Error('bad cursor');
    return { limit, after: { createdAt, id: raw.i }, filterDigest };
  } catch {
    throw badRequest('INVALID_CURSOR', 'The cursor is invalid, or was issued for other filters.');
  }
}

/** Builds the list envelope from `limit + 1` rows fetched in order. */
export function toPage<Row extends { created_at: Date; id: string }, T>(
  rows: Row[],
  totalCount: number,
  page: PageRequest,
  map: (row: Row) => T,
): Page<T> {
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  const last = items.at(-1);
  const result: Page<T> = { data: items.map(map), hasMore, totalCount };
  if (hasMore && last !== undefined) {
    result.nextCursor = Buffer.from(JSON.stringify({ c: last.created_at.toISOString(), i: last.id, f: page.filterDigest })).toString('base64url');
  }
  return result;
}

/**
 * The whole of a paginated list operation: takes `limit` and `cursor` out of the query, fetches
 * one page with the remaining filters and maps its rows to API objects.
 */
export async function listPage<Q extends { limit?: number; cursor?: string }, Row extends { created_at: Date; id: string }, T>(
  query: Q,
  fetch: (filters: Omit<Q, 'limit' | 'cursor'>, page: PageRequest) => Promise<{ rows: Row[]; total: number }>,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const { limit, cursor, ...filters } = query;
  const page = pageRequest({ limit, cursor }, filters);
  const { rows, total } = await fetch(filters, page);
  return toPage(rows, total, page, map);
}
