// A server of a test file's own, for tests that move its clock or change its configuration (which
// would disturb the other files' tests on the shared target): started in the file's process before
// the tests of the calling `describe`, stopped after them, with a contract-checked client and its
// credentials.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { target } from './api.ts';
import { createMigratedDatabase } from './migrated-database.ts';
import { adminUrlOf } from './postgres-database.ts';
import type { PaymentsClient } from '../../client/index.ts';
import { checkedClientOf } from './factories.ts';
import { startInProcess, type TestServer } from './in-process-server.ts';
import { newCredentials, startServer, type ServerProcess } from './server-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

export interface OwnServer {
  readonly server: TestServer;
  readonly via: PaymentsClient;
  readonly token: { clientId: string; clientSecret: string };
}

/**
 * Call inside a `describe`: the returned object is filled in by its `beforeAll`. The server runs on
 * PGlite, or, with `onTargetDatabase` on the PostgreSQL target, on a fresh PostgreSQL database
 * of its own, already migrated (`databaseUrl`, for a second process to share).
 */
export function ownServer(options: { onTargetDatabase?: boolean } = {}): OwnServer & { databaseUrl: string | undefined; readonly env: NodeJS.ProcessEnv; startAnother(): Promise<ServerProcess> } {
  const token = newCredentials();
  const env: NodeJS.ProcessEnv = { PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret };
  const others: ServerProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  const own = {
    token,
    databaseUrl: undefined as string | undefined,
    /** The server's environment (database, master key, credentials): for another process or a script on its database. */
    env,
    /** Another server, a process, on the same PostgreSQL database, master key and credentials. */
    async startAnother() {
      if (own.databaseUrl === undefined) throw new Error('a second process needs the PostgreSQL target');
      const other = await startServer(env);
      others.push(other);
      return other;
    },
  } as OwnServer & { databaseUrl: string | undefined; readonly env: NodeJS.ProcessEnv; startAnother(): Promise<ServerProcess> };
  beforeAll(async () => {
    if (options.onTargetDatabase === true && target === 'postgres') {
      const database = await createMigratedDatabase(adminUrlOf(inject('databaseUrl')), 'own');
      own.databaseUrl = database.url;
      drop = database.drop;
      Object.assign(env, { DATABASE_URL: database.url, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') });
    }
    (own as { server: TestServer }).server = await startInProcess(env);
    (own as { via: PaymentsClient }).via = checkedClientOf(own.server.baseUrl, token);
  }, 120_000);
  afterAll(async () => {
    // Processes stop before their database is dropped.
    await Promise.all([own.server, ...others].map((s) => s?.stop()));
    await drop?.();
  });
  return own;
}

/**
 * Call inside a `describe`, after `ownServer()`: a webhook receiver set as the own server's endpoint
 * (its TEST event received), with the endpoint's signing secret; closed after the tests.
 */
export function ownWebhookReceiver(own: OwnServer): { receiver: WebhookReceiver; secret: string } {
  const hooks = {} as { receiver: WebhookReceiver; secret: string };
  beforeAll(async () => {
    hooks.receiver = await startWebhookReceiver();
    const { data } = await own.via.PATCH('/config', { body: { webhookEndpoint: hooks.receiver.url } });
    hooks.secret = data?.webhookSigningSecret ?? '';
    await hooks.receiver.waitFor(1); // the TEST event of the new endpoint
  });
  afterAll(async () => {
    await hooks.receiver?.close();
  });
  return hooks;
}
