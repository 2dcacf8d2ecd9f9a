// Keyset pagination shared by every list: newest first, ties broken by id. A cursor is the
// position (createdAt, id) of a page's last item, the walk's totalCount (counted once, on its
// first page: db/paginate.ts) and a digest of the list's filters, with a MAC, so a forged or
// edited cursor (a date the database cannot store, a NUL in the id, another total) is refused as
// INVALID_CURSOR before it reaches a query, and a cursor is only good for the filters it came with.
import { hash } from 'node:crypto';
import { badRequest } from './errors.ts';
import { isId } from './ids.ts';
import type { Keyring } from './keyring.ts';
import { sameText } from './constant-time.ts';

export interface PageRequest {
  limit: number;
  after: { createdAt: Date; id: string } | undefined;
  /** The walk's totalCount, as its first page found it: carried by the cursor (absent in a cursor issued before cursors had it). */
  total?: number;
  filterDigest: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

export interface PageRows<Row> {
  rows: Row[];
  total: number;
}

export const DEFAULT_PAGE_SIZE = 20;

const digest = (filters: unknown) => hash('sha256', JSON.stringify(filters ?? {}), 'base64url').slice(0, 16);
const invalidCursor = () => badRequest('INVALID_CURSOR', 'The cursor is invalid, or was issued for other filters.');

function encodeCursor(keys: Keyring, position: { createdAt: Date; id: string }, total: number, filterDigest: string): string {
  const payload = Buffer.from(JSON.stringify({ c: position.createdAt.toISOString(), i: position.id, t: total, f: filterDigest })).toString('base64url');
  return `${payload}.${keys.mac(payload)}`;
}

function decodeCursor(keys: Keyring, cursor: string, filterDigest: string): { after: { createdAt: Date; id: string }; total?: number } {
  const [payload, tag, ...rest] = cursor.split('.');
  if (payload === undefined || tag === undefined || rest.length > 0 || !keys.verifyMac(payload, tag)) throw invalidCursor();
  let raw: { c?: unknown; i?: unknown; t?: unknown; f?: unknown };
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof raw;
  } catch {
    throw invalidCursor();
  }
  // Authentic cursors are well-formed; checked anyway, as a second line of defence.
  const createdAt = new Date(typeof raw.c === 'string' ? raw.c : Number.NaN);
  if (typeof raw.i !== 'string' || !isId(raw.i) || Number.isNaN(createdAt.getTime()) || typeof raw.f !== 'string' || !sameText(raw.f, filterDigest)) throw invalidCursor();
  if (raw.t !== undefined && !(typeof raw.t === 'number' && Number.isSafeInteger(raw.t) && raw.t >= 0)) throw invalidCursor();
  return { after: { createdAt, id: raw.i }, ...(raw.t === undefined ? {} : { total: raw.t }) };
}

export function pageRequest(keys: Keyring, query: { limit?: number; cursor?: string }, filters: unknown): PageRequest {
  const filterDigest = digest(filters);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (query.cursor === undefined) return { limit, after: undefined, filterDigest };
  return { limit, ...decodeCursor(keys, query.cursor, filterDigest), filterDigest };
}

/** Builds the list envelope from `limit + 1` rows fetched in order. */
export function toPage<Row extends { created_at: Date; id: string }, T>(keys: Keyring, { rows, total }: PageRows<Row>, page: PageRequest, map: (row: Row) => T): Page<T> {
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  const last = items.at(-1);
  const result: Page<T> = { data: items.map(map), hasMore, totalCount: total };
  if (hasMore && last !== undefined) result.nextCursor = encodeCursor(keys, { createdAt: last.created_at, id: last.id }, total, page.filterDigest);
  return result;
}

/**
 * The whole of a paginated list: takes `limit` and `cursor` out of the query, fetches one page with
 * the remaining filters and maps its rows to API objects.
 */
export async function listPage<Q extends { limit?: number; cursor?: string }, Row extends { created_at: Date; id: string }, T>(
  keys: Keyring,
  query: Q,
  fetch: (filters: Omit<Q, 'limit' | 'cursor'>, page: PageRequest) => Promise<PageRows<Row>>,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const { limit, cursor, ...filters } = query;
  const page = pageRequest(keys, { limit, cursor }, filters);
  return toPage(keys, await fetch(filters, page), page, map);
}

function encodeKeyCursor(keys: Keyring, key: string, filterDigest: string): string {
  const payload = Buffer.from(JSON.stringify({ k: key, f: filterDigest })).toString('base64url');
  return `${payload}.${keys.mac(payload)}`;
}

function decodeKeyCursor(keys: Keyring, cursor: string, filterDigest: string): string {
  const [payload, tag, ...rest] = cursor.split('.');
  if (payload === undefined || tag === undefined || rest.length > 0 || !keys.verifyMac(payload, tag)) throw invalidCursor();
  let raw: { k?: unknown; f?: unknown };
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof raw;
  } catch {
    throw invalidCursor();
  }
  if (typeof raw.k !== 'string' || typeof raw.f !== 'string' || !sameText(raw.f, filterDigest)) throw invalidCursor();
  return raw.k;
}

/**
 * A page of a list computed in memory (the sandbox's rate table, its banks), sorted by `keyOf`:
 * the cursor holds the last item's key, so a page never repeats or skips an item.
 */
export function pageOfItems<T>(keys: Keyring, items: readonly T[], keyOf: (item: T) => string, query: { limit?: number; cursor?: string }, filters: unknown): Page<T> {
  const filterDigest = digest(filters);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const sorted = [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const after = query.cursor === undefined ? undefined : decodeKeyCursor(keys, query.cursor, filterDigest);
  const rest = after === undefined ? sorted : sorted.filter((item) => keyOf(item) > after);
  const data = rest.slice(0, limit);
  const last = data.at(-1);
  const hasMore = rest.length > limit;
  return { data, hasMore, totalCount: items.length, ...(hasMore && last !== undefined ? { nextCursor: encodeKeyCursor(keys, keyOf(last), filterDigest) } : {}) };
}
