import type { MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../openapi.js';
import type { PaymentsClient } from './client.js';
type ListBody<P extends keyof paths> = paths[P] extends {
    get: {
        responses: {
            200: {
                content: {
                    'application/json': infer B;
                };
            };
        };
    };
} ? B : never;
/** The paths whose GET answers `{ data, hasMore, nextCursor? }` and takes a `cursor`. */
export type ListPath = {
    [P in keyof paths]: ListBody<P> extends {
        data: unknown[];
        hasMore: boolean;
        nextCursor?: string;
    } ? paths[P] extends {
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                };
            };
        };
    } ? P : never : never;
}[keyof paths];
/** The item type of a list path. */
export type ListItem<P extends ListPath> = ListBody<P> extends {
    data: (infer I)[];
} ? I : never;
type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;
/**
 * `for await (const customer of paginate(api, '/customers', { params: { query: { limit: 100 } } }))`.
 * An error answer on any page throws a PaymentsApiError.
 */
export declare function paginate<P extends ListPath>(client: PaymentsClient, path: P, ...[init]: undefined extends ListInit<P> ? [init?: ListInit<P>] : [init: ListInit<P>]): AsyncGenerator<ListItem<P>, void, undefined>;
export {};
