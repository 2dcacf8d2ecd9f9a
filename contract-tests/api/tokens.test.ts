// API tokens: createToken, listTokens, getToken, deleteToken.
import { describe, expect, it } from 'vitest';
import { api, client, expectInvalidRequest, isMock, itServer, raw, unique } from '../support/api.ts';
import { clientFor, createToken } from '../support/factories.ts';
import { codeOf, fieldErrors, jsonBody } from '../support/raw-requests.ts';

const missingToken = 'Token:019542f5-b3e7-1d02-0000-0000000000ff';

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

  itServer('201: the new credentials authenticate, with their permissions', async () => {
    const token = await createToken(['VIEW']);
    const viewer = clientFor(token);
    const { response } = await viewer.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(response.status).toBe(200);
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

  itServer('401: rejects a wrong secret of the same and of another length', async () => {
    const token = await createToken(['VIEW']);
    for (const secret of [`${token.clientSecret.slice(0, -1)}x`, 'short']) {
      const { response, error } = await client({ clientId: token.clientId, clientSecret: secret }).GET('/tokens');
      expect(response.status).toBe(401);
      expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  itServer('403: needs MANAGE', async () => {
    const token = await createToken(['VIEW', 'TRANSACT']);
    const { response, error } = await clientFor(token).POST('/tokens', { body: { name: 'x', permissions: ['VIEW'] } });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('listTokens', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/tokens');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: pages with opaque cursors, newest first, filtered by name, never showing secrets', async () => {
    const name = `paged ${unique()}`;
    const created = [await createToken(['VIEW'], name), await createToken(['VIEW'], name), await createToken(['VIEW'], name)];
    const first = await api.GET('/tokens', { params: { query: { name, limit: 2 } } });
    expect(first.data).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.data?.data.map((t) => t.id)).toEqual([created[2]?.id, created[1]?.id]);
    const second = await api.GET('/tokens', { params: { query: { name, limit: 2, cursor: first.data?.nextCursor ?? '' } } });
    expect(second.data).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.data?.nextCursor).toBeUndefined();
    expect(second.data?.data.map((t) => t.id)).toEqual([created[0]?.id]);
    for (const t of [...(first.data?.data ?? []), ...(second.data?.data ?? [])]) expect(t).not.toHaveProperty('clientSecret');
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

  itServer('400: rejects a forged cursor, and a cursor used with other filters', async () => {
    expect((await raw('GET', '/tokens?cursor=not-a-cursor')).status).toBe(400);
    const name = `cursor ${unique()}`;
    await createToken(['VIEW'], name);
    await createToken(['VIEW'], name);
    const page = await api.GET('/tokens', { params: { query: { name, limit: 1 } } });
    const { response, error } = await api.GET('/tokens', { params: { query: { name: 'other', cursor: page.data?.nextCursor ?? '' } } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_CURSOR' });
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

  itServer('404: unknown token', async () => {
    const { response, error } = await api.GET('/tokens/{tokenId}', { params: { path: { tokenId: missingToken } } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'TOKEN_NOT_FOUND' });
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

  itServer('400: a token cannot delete itself', async () => {
    const token = await createToken(['MANAGE']);
    const self = clientFor(token);
    const { response } = await self.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
    expect(response.status).toBe(400);
  });

  itServer('404: unknown token', async () => {
    const { response } = await api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: missingToken } } });
    expect(response.status).toBe(404);
  });

  itServer('403: needs MANAGE', async () => {
    const viewer = await createToken(['VIEW']);
    const target = await createToken(['VIEW']);
    const { response } = await clientFor(viewer).DELETE('/tokens/{tokenId}', { params: { path: { tokenId: target.id } } });
    expect(response.status).toBe(403);
  });
});
