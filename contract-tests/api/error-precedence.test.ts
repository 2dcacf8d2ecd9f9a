// Which error a request with several things wrong gets: who is calling is settled first (401, then
// 403), and only then what was sent, so a caller that may not call an operation learns nothing of
// how it reads its input. A body that is not JSON is no exception. Sent to the server directly:
// the Prism proxy never answers a body that is not JSON, and the mock keeps no tokens.
import { expect } from 'vitest';
import { credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';
import { createToken } from '../support/factories.ts';
import { basicAuth } from '../support/raw-requests.ts';

const broken = '{"name": ';

async function post(path: string, authorization: string | undefined, body = broken) {
  const res = await fetch(`${serverBaseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body,
  });
  return { status: res.status, body: (await res.json()) as { status: number; code: string; message: string } };
}

describeServer('error precedence', () => {
  itServer('a body that is not JSON: 401 without credentials or with wrong ones, 403 without the permission, 400 for a caller allowed to call', async () => {
    const viewer = await createToken(['VIEW']);
    expect(await post('/tokens', undefined)).toMatchObject({ status: 401, body: { status: 401, code: 'UNAUTHORIZED' } });
    // The wrong secret counts against the viewer's clientId, not the suite's.
    expect(await post('/tokens', basicAuth({ clientId: viewer.clientId, clientSecret: 'sk_sandbox_wrong' }))).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await post('/tokens', basicAuth(viewer))).toMatchObject({ status: 403, body: { status: 403, code: 'FORBIDDEN' } });
    expect(await post('/tokens', basicAuth(credentials))).toMatchObject({ status: 400, body: { status: 400, code: 'INVALID_INPUT', message: expect.stringContaining('not valid JSON') } });
  });

  itServer('an operation that needs no credentials (redeeming a device code) still refuses a body that is not JSON', async () => {
    expect(await post('/agents/device-codes/AGENT-AAAA-BBBB/redeem', undefined)).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
    // The same request without a body: the code is what is wrong.
    const res = await fetch(`${serverBaseUrl}/agents/device-codes/AGENT-AAAA-BBBB/redeem`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});
