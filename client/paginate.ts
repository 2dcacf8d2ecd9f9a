// Every item of a list operation, page after page: follows `nextCursor` while `hasMore` holds.
// Only paths whose GET answers the list envelope are accepted, and items have the list's type.
import type { MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import type { PaymentsClient } from './client.js';
import { PaymentsApiError } from './errors.js';

type ListBody<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;

/** The paths whose GET answers `{ data, hasMore, nextCursor? }` and takes a `cursor`. */
export type ListPath = {
  [P in keyof paths]: ListBody<P> extends { data: unknown[]; hasMore: boolean; nextCursor?: string }
    ? paths[P] extends { get: { parameters: { query?: { cursor?: string } } } }
      ? P
      : never
    : never;
}[keyof paths];

/** The item type of a list path. */
export type ListItem<P extends ListPath> = ListBody<P> extends { data: (infer I)[] } ? I : never;

type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;

/**
 * `for await (const customer of paginate(api, '/customers', { params: { query: { limit: 100 } } }))`.
 * An error answer on any page throws a PaymentsApiError.
 */
export async function* paginate<P extends ListPath>(
  client: PaymentsClient,
  path: P,
  ...[init]: undefined extends ListInit<P> ? [init?: ListInit<P>] : [init: ListInit<P>]
): AsyncGenerator<ListItem<P>, void, undefined> {
  // The generic path defeats openapi-fetch's overloads; the signature above keeps callers typed.
  const get = client.GET as unknown as (path: string, init: { params?: { query?: Record<string, unknown> } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const options = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
  let cursor: string | undefined;
  do {
    const { data, error, response } = await get(path, { ...options, params: { ...options.params, query: { ...options.params?.query, ...(cursor === undefined ? {} : { cursor }) } } });
    if (!response.ok) throw new PaymentsApiError(response, error);
    const page = data as { data: ListItem<P>[]; hasMore: boolean; nextCursor?: string };
    yield* page.data;
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor !== undefined);
}
