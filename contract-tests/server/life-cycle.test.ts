// The server's own life cycle on the embedded database (on disk): the first start creates the
// sandbox platform and prints its token once; a restart keeps everything, including background
// work that was due; and a start that cannot be correct stops at once with a message saying what
// to change, having created nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { target } from '../support/api.ts';
import { jsonHeaders as basic, newCredentials as credentials, startServer, spawnServer, type ServerProcess } from '../support/server-process.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const folders: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'payments-pglite-'));
  folders.push(dir);
  return join(dir, 'pglite');
};
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const printedToken = (output: string) => ({ clientId: /clientId:\s+(\S+)/.exec(output)?.[1], clientSecret: /clientSecret:\s+(\S+)/.exec(output)?.[1] });

async function withServer<T>(env: NodeJS.ProcessEnv, use: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await startServer(env);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** Starts a server that must refuse to start: resolves with its exit code and output. */
async function refusedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const server = await spawnServer(env);
  const code = await Promise.race([server.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 60_000))]);
  if (code === 'running') {
    await server.stop();
    throw new Error(`the server started although it should have refused:\n${server.output()}`);
  }
  return { code, output: server.output() };
}

// About the embedded database and the process itself: run once, with the PGlite target. The
// tests run side by side: each has its own folders, ports and servers, and most of their time
// is spent waiting for a server to start or stop.
describe.skipIf(target !== 'pglite')('embedded database life cycle', { concurrent: true }, () => {
  it('keeps data across restarts and prints the first token only on the first start', async () => {
    const dir = dataDir();
    const first = await withServer({ PGLITE_DATA_DIR: dir }, async (server) => {
      const token = printedToken(server.output());
      expect(token.clientId).toMatch(/^[0-9a-f]{32}$/);
      const auth = basic({ clientId: token.clientId ?? '', clientSecret: token.clientSecret ?? '' });
      const created = await fetch(`${server.baseUrl}/tokens`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'survives restarts', permissions: ['VIEW'] }) });
      expect(created.status).toBe(201);
      return { auth, tokenId: ((await created.json()) as { id: string }).id };
    });
    await withServer({ PGLITE_DATA_DIR: dir }, async (server) => {
      expect(server.output()).not.toMatch(/clientSecret/);
      const read = await fetch(`${server.baseUrl}/tokens/${first.tokenId}`, { headers: first.auth });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { name: string }).name).toBe('survives restarts');
    });
  }, 180_000);

  it('a webhook delivery due to be retried when the server stops is delivered once after the restart', async () => {
    const dir = dataDir();
    const token = credentials();
    const receiver = await startWebhookReceiver();
    try {
      const env = { PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret };
      const eventIds = await withServer(env, async (server) => {
        const auth = basic(token);
        await fetch(`${server.baseUrl}/config`, { method: 'PATCH', headers: auth, body: JSON.stringify({ webhookEndpoint: receiver.url }) });
        await receiver.waitFor(1); // the TEST event of the new endpoint
        receiver.answerWith(503, 'down for maintenance');
        const customer = (await (await fetch(`${server.baseUrl}/customers`, { method: 'POST', headers: auth, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Jane Doe' }) })).json()) as { id: string };
        expect((await fetch(`${server.baseUrl}/verifications`, { method: 'POST', headers: auth, body: JSON.stringify({ customerId: customer.id }) })).status).toBe(200);
        // VERIFICATION_STATUS_UPDATED and CUSTOMER_KYC_APPROVED, both refused: retried in 5 s.
        const failed = await receiver.waitFor(3);
        return failed.slice(1).map((w) => w.headers['webhook-id']);
      });
      expect(eventIds).toHaveLength(2);
      receiver.answerWith(200);
      await withServer(env, async () => {
        const deadline = Date.now() + 30_000;
        const delivered = () => receiver.received.filter((w) => w.answered === 200 && eventIds.includes(w.headers['webhook-id']));
        while (delivered().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 1000)); // a second delivery would arrive meanwhile
        expect(delivered().map((w) => w.headers['webhook-id']).sort()).toEqual([...eventIds].sort());
      });
    } finally {
      await receiver.close();
    }
  }, 180_000);

  it('refuses PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET that break the contract, before opening anything', async () => {
    const badId = await refusedStart({ PGLITE_DATA_DIR: dataDir(), PAYMENTS_CLIENT_ID: 'my-client', PAYMENTS_CLIENT_SECRET: credentials().clientSecret });
    expect(badId.code).toBe(1);
    expect(badId.output).toContain('PAYMENTS_CLIENT_ID must be 32 lowercase hex digits');
    const badSecret = await refusedStart({ PGLITE_DATA_DIR: dataDir(), PAYMENTS_CLIENT_ID: credentials().clientId, PAYMENTS_CLIENT_SECRET: 'a' });
    expect(badSecret.code).toBe(1);
    expect(badSecret.output).toContain('PAYMENTS_CLIENT_SECRET must be 32 to 128 printable characters');
    const half = await refusedStart({ PGLITE_DATA_DIR: dataDir(), PAYMENTS_CLIENT_ID: credentials().clientId });
    expect(half.output).toContain('Set both PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET, or neither');
  }, 120_000);

  it('on a port already in use it stops with a message, creates nothing and keeps the first token for the next start', async () => {
    const dir = dataDir();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const refused = await refusedStart({ PGLITE_DATA_DIR: dir, PORT: String(port) });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(refused.output).not.toMatch(/clientSecret|listening/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    await withServer({ PGLITE_DATA_DIR: dir }, async (server) => {
      expect(printedToken(server.output()).clientSecret).toBeDefined();
    });
  }, 120_000);

  it('a second server on the same embedded database folder stops with a message; the first keeps serving', async () => {
    const dir = dataDir();
    const token = credentials();
    await withServer({ PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret }, async (server) => {
      const second = await refusedStart({ PGLITE_DATA_DIR: dir });
      expect(second.code).toBe(1);
      expect(second.output).toMatch(/Another server process \(pid \d+\) is using the embedded database/);
      expect((await fetch(`${server.baseUrl}/config`, { headers: basic(token) })).status).toBe(200);
    });
  }, 120_000);

  it('a configured token deleted through the API, or configured with another secret, stops the next start', async () => {
    const dir = dataDir();
    const configured = credentials();
    let other = credentials();
    await withServer({ PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: configured.clientId, PAYMENTS_CLIENT_SECRET: configured.clientSecret }, async (server) => {
      // A second token deletes the configured one (a token cannot delete itself).
      const created = await fetch(`${server.baseUrl}/tokens`, { method: 'POST', headers: basic(configured), body: JSON.stringify({ name: 'admin', permissions: ['MANAGE', 'VIEW'] }) });
      other = (await created.json()) as typeof other;
      const list = (await (await fetch(`${server.baseUrl}/tokens`, { headers: basic(other) })).json()) as { data: { id: string; clientId: string }[] };
      const id = list.data.find((t) => t.clientId === configured.clientId)?.id;
      expect((await fetch(`${server.baseUrl}/tokens/${id}`, { method: 'DELETE', headers: basic(other) })).status).toBe(204);
    });
    const deleted = await refusedStart({ PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: configured.clientId, PAYMENTS_CLIENT_SECRET: configured.clientSecret });
    expect(deleted.code).toBe(1);
    expect(deleted.output).toContain(`The token PAYMENTS_CLIENT_ID=${configured.clientId} was deleted through the API`);
    const otherSecret = await refusedStart({ PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: other.clientId, PAYMENTS_CLIENT_SECRET: credentials().clientSecret });
    expect(otherSecret.output).toContain('exists with another secret than PAYMENTS_CLIENT_SECRET');
    // Without them, the server starts and the remaining token works.
    await withServer({ PGLITE_DATA_DIR: dir }, async (server) => {
      expect((await fetch(`${server.baseUrl}/config`, { headers: basic(other) })).status).toBe(200);
    });
  }, 180_000);

  it('values an earlier version stored in clear are sealed at the next start, and still work', async () => {
    const dir = dataDir();
    const token = credentials();
    const env = { PGLITE_DATA_DIR: dir, PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret };
    const receiver = await startWebhookReceiver();
    try {
      await withServer(env, async (server) => {
        await fetch(`${server.baseUrl}/config`, { method: 'PATCH', headers: basic(token), body: JSON.stringify({ webhookEndpoint: receiver.url }) });
        const customer = await fetch(`${server.baseUrl}/customers`, { method: 'POST', headers: basic(token), body: JSON.stringify({ customerType: 'INDIVIDUAL', idType: 'SSN', identifier: '000-00-0000' }) });
        expect(customer.status, await customer.clone().text()).toBe(201);
        const business = await fetch(`${server.baseUrl}/customers`, { method: 'POST', headers: basic(token), body: JSON.stringify({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme', country: 'US', taxId: '00-0000000' } }) });
        expect(business.status, await business.clone().text()).toBe(201);
        const accountInfo = { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Northwind', taxId: 'FR00000000000' } };
        const account = await fetch(`${server.baseUrl}/customers/external-accounts`, { method: 'POST', headers: basic(token), body: JSON.stringify({ currency: 'EUR', accountInfo }) });
        expect(account.status, await account.clone().text()).toBe(201);
      });
      // What an earlier version left: the secret, the identifier and the tax ids in clear.
      const earlier = await openDatabase({ databaseUrl: undefined, pgliteDataDir: dir }, pino({ level: 'silent' }));
      await sql`update platforms set webhook_signing_secret = 'whsec_aW4gY2xlYXIgaW4gY2xlYXIgaW4gY2xlYXI='`.execute(earlier.db);
      await sql`update customers set identifier = '123-45-6789' where customer_type = 'INDIVIDUAL'`.execute(earlier.db);
      await sql`update customers set profile = jsonb_set(profile, '{businessInfo,taxId}', '"12-3456789"') where customer_type = 'BUSINESS'`.execute(earlier.db);
      await sql`update external_accounts set account_info = jsonb_set(account_info, '{beneficiary,taxId}', '"FR40123456789"')`.execute(earlier.db);
      await earlier.close();

      await withServer(env, async (server) => {
        const result = (await (await fetch(`${server.baseUrl}/sandbox/webhooks/test`, { method: 'POST', headers: basic(token) })).json()) as { response_status: number };
        expect(result.response_status).toBe(200);
        const hook = receiver.received.at(-1);
        expect(() => new Webhook('whsec_aW4gY2xlYXIgaW4gY2xlYXIgaW4gY2xlYXI=').verify(hook?.body ?? '', hook?.headers ?? {})).not.toThrow();
        // The tax ids, sealed, still answer as they were.
        const businesses = (await (await fetch(`${server.baseUrl}/customers?customerType=BUSINESS`, { headers: basic(token) })).json()) as { data: { businessInfo: { taxId?: string } }[] };
        expect(businesses.data.map((c) => c.businessInfo.taxId)).toEqual(['12-3456789']);
        const accounts = (await (await fetch(`${server.baseUrl}/platform/external-accounts`, { headers: basic(token) })).json()) as { data: { accountInfo: { beneficiary: { taxId?: string } } }[] };
        expect(accounts.data.map((a) => a.accountInfo.beneficiary.taxId)).toEqual(['FR40123456789']);
      });
      const after = await openDatabase({ databaseUrl: undefined, pgliteDataDir: dir }, pino({ level: 'silent' }));
      const stored = await sql<{ value: string }>`select webhook_signing_secret as value from platforms
        union all select identifier from customers where identifier is not null
        union all select profile #>> '{businessInfo,taxId}' from customers where customer_type = 'BUSINESS'
        union all select account_info #>> '{beneficiary,taxId}' from external_accounts`.execute(after.db);
      await after.close();
      expect(stored.rows.length).toBe(4);
      for (const { value } of stored.rows) expect(value).toMatch(/^sealed\.v1\./);
    } finally {
      await receiver.close();
    }
  }, 180_000);

  it('a master key other than the one the database was set up with stops the start', async () => {
    const dir = dataDir();
    await withServer({ PGLITE_DATA_DIR: dir }, async () => {});
    const refused = await refusedStart({ PGLITE_DATA_DIR: dir, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('This database was set up with another master key');
  }, 120_000);
});
