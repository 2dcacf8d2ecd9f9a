// Every operation with an id in its path rejects a malformed id with 400 INVALID_INPUT before
// anything runs. The mock validates the same patterns but answers with the first documented
// validation status it finds, which is 422 on operations that also document the Idempotency-Key
// mismatch.
import { describe, expect, it } from 'vitest';
import { isMock, raw } from '../support/api.ts';
import { exampleRequest } from '../support/example-request.ts';
import { codeOf, fieldErrors } from '../support/raw-requests.ts';
import { deref, operations } from '../support/spec.ts';

type Json = Record<string, unknown>;

const withPathIds = operations
  .filter((o) => (o.operation.security ?? []).some((s) => 'basicAuth' in s))
  .map((o) => {
    const params = [...((o.pathItem.parameters as Json[] | undefined) ?? []), ...(o.operation.parameters ?? [])].map((p) => deref<Json>(p));
    return { o, path: params.filter((p) => p.in === 'path' && (p.schema as Json | undefined)?.pattern !== undefined) };
  })
  .filter(({ path }) => path.length > 0);

describe('malformed path ids', () => {
  it.each(withPathIds.map(({ o, path }) => [o.operation.operationId, o, path] as const))('%s: 400 INVALID_INPUT', async (_id, o, path) => {
    // A valid request but for the ids, so the ids are the only thing wrong with it.
    const { init } = exampleRequest(o);
    let url = o.path;
    for (const p of path) url = url.replace(`{${p.name as string}}`, 'not-an-id');
    const res = await raw(o.method.toUpperCase(), url, init);
    if (isMock) {
      expect([400, 422]).toContain(res.status);
      return;
    }
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_INPUT');
    expect(await fieldErrors(res)).toEqual(expect.arrayContaining(path.map((p) => `path.${p.name as string}`)));
  });
});
