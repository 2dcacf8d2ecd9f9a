// A server of a test file's own, for tests that move its clock or change its configuration (which
// would disturb the other files' tests on the shared target): started before the file's tests of
// the calling `describe`, stopped after them, with a contract-checked client and its credentials.
import { afterAll, beforeAll } from 'vitest';
import type { PaymentsClient } from '../../client/index.ts';
import { checkedClientOf } from './factories.ts';
import { newCredentials, startServer, type ServerProcess } from './server-process.ts';

export interface OwnServer {
  readonly server: ServerProcess;
  readonly via: PaymentsClient;
  readonly token: { clientId: string; clientSecret: string };
}

/** Call inside a `describe`: the returned object is filled in by its `beforeAll`. */
export function ownServer(): OwnServer {
  const token = newCredentials();
  const own = { token } as { server: ServerProcess; via: PaymentsClient; token: typeof token };
  beforeAll(async () => {
    own.server = await startServer({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    own.via = checkedClientOf(own.server.baseUrl, token);
  }, 120_000);
  afterAll(async () => {
    await own.server?.stop();
  });
  return own;
}
