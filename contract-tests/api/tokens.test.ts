// API tokens: createToken, listTokens, getToken, deleteToken: what the Prism mock answers too, and
// the rules the conformance kit does not check. The rest (new credentials work, wrong secrets,
// grants, 403, 404, pages and cursors, a token deleting itself) is the kit's tokens.*, auth.*,
// errors.* and pagination.listTokens.* checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import { api, expectInvalidRequest, isMock, itServer, raw, unique } from '../support/api.ts';
import { clientFor, createToken } from '../support/factories.ts';
import { codeOf, fieldErrors, jsonBody } from '../support/raw-requests.ts';

describe('createToken', () => {
  it('201: returns the token with its secret, once', async () => {
    const token = await createToken(['VIEW', 'TRANSACT']);
    expect(token.clientSecret).toEqual(expect.any(String));
    if (isMock) return;
    expect(token.permissions).toEqual(['VIEW', 'TRANSACT']);
    const { data: again } = await api.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(again).toMatchObject({ id: token.id, name: token.name, clientId: token.clientId });
    expect(again).not.toHaveProperty('clientSecret');
  });

  it('400: rejects an invalid body with field errors', async () => {
    const res = await raw('POST', '/tokens', jsonBody({ name: '', permissions: ['ADMIN'] }));
    await expectInvalidRequest(res.clone());
    if (!isMock) expect(await fieldErrors(res)).toEqual(expect.arrayContaining(['/name', '/permissions/0']));
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/tokens', { auth: false, ...jsonBody({ name: 'x', permissions: ['VIEW'] }) });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });
});

describe('listTokens', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/tokens');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: filters by creation time, inclusive', async () => {
    const name = `timed ${unique()}`;
    const token = await createToken(['VIEW'], name);
    const at = token.createdAt;
    const inside = await api.GET('/tokens', { params: { query: { name, createdAfter: at, createdBefore: at } } });
    expect(inside.data?.totalCount).toBe(1);
    const after = await api.GET('/tokens', { params: { query: { name, createdAfter: new Date(Date.parse(at) + 1).toISOString() } } });
    expect(after.data?.totalCount).toBe(0);
  });

  it('400: rejects a limit outside 1..100', async () => {
    for (const limit of ['0', '101', 'abc']) {
      const res = await raw('GET', `/tokens?limit=${limit}`);
      expect(res.status).toBe(400);
    }
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/tokens', { auth: false })).status).toBe(401);
  });
});

describe('getToken', () => {
  it('200: returns the token', async () => {
    const token = await createToken(['VIEW']);
    const { data, response } = await api.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(response.status).toBe(200);
    expect(data?.id).toEqual(expect.stringMatching(/^Token:/));
  });

  it('400: rejects a malformed id', async () => {
    expect((await raw('GET', '/tokens/not-an-id')).status).toBe(400);
  });
});

describe('deleteToken', () => {
  it('204: deletes the token', async () => {
    const token = await createToken(['VIEW']);
    const { response } = await api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(response.status).toBe(204);
    if (isMock) return;
    const { response: gone } = await api.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(gone.status).toBe(404);
    const { response: denied } = await clientFor(token).GET('/tokens');
    expect(denied.status).toBe(401);
  });
});
