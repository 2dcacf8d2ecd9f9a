import { PaymentsApiError } from './errors.js';
/**
 * `for await (const customer of paginate(api, '/customers', { params: { query: { limit: 100 } } }))`.
 * An error answer on any page throws a PaymentsApiError.
 */
export async function* paginate(client, path, ...[init]) {
    // The generic path defeats openapi-fetch's overloads; the signature above keeps callers typed.
    const get = client.GET;
    const options = (init ?? {});
    let cursor;
    do {
        const { data, error, response } = await get(path, { ...options, params: { ...options.params, query: { ...options.params?.query, ...(cursor === undefined ? {} : { cursor }) } } });
        if (!response.ok)
            throw new PaymentsApiError(response, error);
        const page = data;
        yield* page.data;
        cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor !== undefined);
}
