// The sandbox clock of a platform (getSandboxClock, advanceSandboxClock), on a server of this file's
// own: advancing answers once what came due has happened (a transfer ending in 005 fails 30 s
// after it was sent, a quote to an account ending in 003 completes 6 minutes after it was
// executed), dated at its due time, with nothing polled or waited for; one platform's clock never
// moves another's; limits on failed authentications stay on real time; bad input gets 400.
import { describe, expect, it } from 'vitest';
import type { PaymentsClient } from '../../client/index.ts';
import { client, target } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceThrough, created, customerWithExternalAccount, getTransaction, transferOut } from '../support/factories.ts';
import { ownServer } from '../support/own-server.ts';
import { quoteCalls } from '../support/quotes.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { oidcToken, walletCalls } from '../support/wallets.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { Webhook } from 'standardwebhooks';

type Token = { clientId: string; clientSecret: string };

describe.skipIf(target !== 'pglite' && target !== 'postgres')('the sandbox clock of a platform', () => {
  const own = ownServer({ onTargetDatabase: true });

  /** A second platform on the same server, with its own token. */
  async function otherPlatform(): Promise<{ via: PaymentsClient; token: Token }> {
    const res = await fetch(`${own.server.origin}/__test/platforms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Other platform' }) });
    expect(res.status).toBe(200);
    const token = (await res.json()) as Token;
    return { via: client(token, own.server.baseUrl), token };
  }

  const clockOf = async (via: PaymentsClient) => {
    const { data, response } = await via.GET('/sandbox/clock');
    expect(response.status).toBe(200);
    return data as { now: string; offsetMs: number };
  };
  const advance = (via: PaymentsClient, body: { seconds: number } | { to: string }) => via.POST('/sandbox/clock/advance', { body });

  it('reads real time until advanced; advancing by seconds or to an instant moves it forward, and new objects are dated on it', async () => {
    const { via } = await otherPlatform();
    const before = await clockOf(via);
    expect(before.offsetMs).toBe(0);
    expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(5_000);

    const { data: byHour, response } = await advance(via, { seconds: 3_600 });
    expect(response.status).toBe(200);
    expect(byHour?.offsetMs).toBe(3_600_000);

    const to = new Date(Date.parse(byHour?.now ?? '') + 86_400_000).toISOString();
    const { data: toInstant } = await advance(via, { to });
    expect(Date.parse(toInstant?.now ?? '')).toBeGreaterThanOrEqual(Date.parse(to));
    expect(Date.parse(toInstant?.now ?? '')).toBeLessThan(Date.parse(to) + 5_000);

    const { data: customer } = await via.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `clock-${Date.now()}`, fullName: 'Jane Doe', currencies: ['USD'] } });
    const createdAt = Date.parse(customer?.createdAt ?? '');
    expect(createdAt).toBeGreaterThanOrEqual(Date.parse(to));
    expect(createdAt).toBeLessThan(Date.parse((await clockOf(via)).now) + 1);
  });

  it('advances at once take turns and add up: none of them is lost', async () => {
    const { via } = await otherPlatform();
    const answers = await Promise.all(Array.from({ length: 4 }, () => advance(via, { seconds: 60 })));
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200]);
    // Each answer is the clock after its own move: 1 to 4 minutes on, each once.
    expect(answers.map((a) => a.data?.offsetMs).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual([60_000, 120_000, 180_000, 240_000]);
    expect((await clockOf(via)).offsetMs).toBe(240_000);
  });

  it('400: backwards, by zero, past 366 days, both or neither; the clock does not move', async () => {
    const { via } = await otherPlatform();
    const now = Date.parse((await clockOf(via)).now);
    const bodies = [
      { seconds: 0 },
      { seconds: -5 },
      { seconds: 31_622_401 },
      { to: new Date(now - 60_000).toISOString() },
      { to: new Date(now + 367 * 86_400_000).toISOString() },
      { seconds: 60, to: new Date(now + 120_000).toISOString() },
      {},
    ];
    for (const body of bodies) {
      const { error, response } = await via.POST('/sandbox/clock/advance', { body: body as { seconds: number } });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    }
    expect((await clockOf(via)).offsetMs).toBe(0);
  });

  it('005: advancing 30 s answers with the transfer FAILED and credited back, dated at its due time; nothing is polled', async () => {
    const { via } = await otherPlatform();
    const { internal, external } = await customerWithExternalAccount('005', { funding: 10_000, via });
    const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 4_000 }, { via }));
    expect(tx.status).toBe('PENDING');

    await advance(via, { seconds: 20 });
    expect((await getTransaction(tx.id, via)).status).toBe('PENDING');
    const { response } = await advance(via, { seconds: 11 });
    expect(response.status).toBe(200);
    const failed = await getTransaction(tx.id, via);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'BANK_REJECTED', createdAt: tx.createdAt });
    // Dated when it was due (about 30 s after it was sent), not when the advance ended (31 s).
    const after = Date.parse(failed.updatedAt) - Date.parse(tx.createdAt);
    expect(after).toBeGreaterThanOrEqual(30_000);
    expect(after).toBeLessThan(31_000);
    expect(await balanceThrough(internal.id, via)).toBe(10_000);
  });

  it('003: advancing 6 minutes answers with the quote COMPLETED', async () => {
    const { via, token } = await otherPlatform();
    const q = quoteCalls(own.server.baseUrl, token);
    const { data: customer } = await via.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `q003-${Date.now()}`, fullName: 'Jane Doe', currencies: ['USD', 'EUR'] } });
    const { data: accounts } = await via.GET('/customers/internal-accounts', { params: { query: { customerId: customer?.id ?? '' } } });
    const usd = accounts?.data.find((a) => a.balance.currency.code === 'USD');
    await via.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd?.id ?? '' } }, body: { amount: 10_000 } });
    const { data: external } = await via.POST('/customers/external-accounts', { body: { customerId: customer?.id ?? '', currency: 'EUR', accountInfo: externalAccountInfo.eur('003') } });
    const quote = await q.createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd?.id ?? '' },
      destination: { destinationType: 'ACCOUNT', accountId: external?.id ?? '' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      immediatelyExecute: true,
    });
    expect(quote.status).toBe('PROCESSING');
    await advance(via, { seconds: 300 });
    expect((await q.getQuote(quote.id)).status).toBe('PROCESSING');
    await advance(via, { seconds: 61 });
    expect((await q.getQuote(quote.id)).status).toBe('COMPLETED');
    expect((await getTransaction(quote.transactionId ?? '', via)).status).toBe('COMPLETED');
  });

  it('webhooks of a change the advance brought are sent before it answers, dated on the platform clock and signed at real time (they verify)', async () => {
    const { via } = await otherPlatform();
    const receiver = await startWebhookReceiver();
    try {
      const { data: config } = await via.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
      await receiver.waitFor(1); // the TEST event of the new endpoint
      await advance(via, { seconds: 86_400 });
      const { internal, external } = await customerWithExternalAccount('005', { funding: 10_000, via });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_000 }, { via }));
      await advance(via, { seconds: 31 });
      const events = receiver.received.map((w) => ({ w, event: JSON.parse(w.body) as { type: string; timestamp: string; data: { id?: string; status?: string } } }));
      const failed = events.find(({ event }) => event.data.id === tx.id && event.data.status === 'FAILED');
      expect(failed, JSON.stringify(events.map((e) => e.event.type))).toBeDefined();
      const at = Date.parse(failed?.event.timestamp ?? '') - Date.parse(tx.createdAt);
      expect(at).toBeGreaterThanOrEqual(30_000);
      expect(at).toBeLessThan(31_000);
      // The receiver's check of webhook-timestamp against its own clock passes: signed at real time.
      expect(() => new Webhook(config?.webhookSigningSecret ?? '').verify(failed?.w.body ?? '', failed?.w.headers ?? {})).not.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('what comes from outside on real time stays on it after an advance: a triggered webhook verifies, an identity provider\'s fresh token is accepted', async () => {
    const { via, token } = await otherPlatform();
    await advance(via, { seconds: 86_400 });
    const receiver = await startWebhookReceiver();
    try {
      const { data: config } = await via.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
      await receiver.waitFor(1); // the TEST event of the new endpoint
      const { data: triggered } = await via.POST('/sandbox/webhooks/trigger', { body: { type: 'OUTGOING_PAYMENT_FAILED' } });
      expect(triggered?.responseStatus).toBe(200);
      const sent = receiver.received.find((w) => (JSON.parse(w.body) as { id: string }).id === triggered?.eventId);
      expect(() => new Webhook(config?.webhookSigningSecret ?? '').verify(sent?.body ?? '', sent?.headers ?? {})).not.toThrow();
    } finally {
      await receiver.close();
    }
    const w = walletCalls(own.server.baseUrl, token);
    const { walletId } = await w.newWallet();
    const issuedNow = oidcToken({ iss: 'https://accounts.google.com', sub: 'clock-advanced', email: 'jane.doe@example.com', iat: Math.floor(Date.now() / 1000) });
    const res = await w.addCredential({ type: 'OAUTH', accountId: walletId, oidcToken: issuedNow });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("one platform's clock never moves another's: its outcomes stay due on its own", async () => {
    const a = await otherPlatform();
    const b = await otherPlatform();
    const { internal, external } = await customerWithExternalAccount('005', { funding: 10_000, via: b.via });
    const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_000 }, { via: b.via }));

    await advance(a.via, { seconds: 7 * 86_400 });
    expect((await clockOf(a.via)).offsetMs).toBe(7 * 86_400_000);
    expect((await clockOf(b.via)).offsetMs).toBe(0);
    expect((await clockOf(own.via)).offsetMs).toBe(0);
    expect(await getTransaction(tx.id, b.via)).toEqual(tx);

    await advance(b.via, { seconds: 31 });
    expect((await getTransaction(tx.id, b.via)).status).toBe('FAILED');
    expect((await clockOf(a.via)).offsetMs).toBe(7 * 86_400_000);
  });

  it('limits on guessing stay on real time: advancing does not give attempts back (failed authentications, invitation look-ups)', async () => {
    const { via } = await otherPlatform();
    const { data: token } = await via.POST('/tokens', { body: { name: 'throttled', permissions: ['VIEW'] } });
    const clientId = token?.clientId ?? '';
    const get = (secret: string) => fetch(`${own.server.baseUrl}/sandbox/clock`, { headers: { authorization: basicAuth({ clientId, clientSecret: secret }) } });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await get('wrong-secret')).status);
    expect(statuses.at(-1)).toBe(429);
    // Invitation codes looked up by this platform: 10 unknown ones, then one back every 6 minutes of real time.
    const lookUp = (code: string) => via.GET('/invitations/{invitationCode}', { params: { path: { invitationCode: code } } });
    for (let i = 0; i < 10; i++) expect((await lookUp(`fffe${String(i).padStart(4, '0')}`)).response.status).toBe(404);
    expect((await lookUp('fffe0010')).response.status).toBe(429);

    await advance(via, { seconds: 86_400 });
    expect((await get(token?.clientSecret ?? '')).status).toBe(429);
    expect((await lookUp('fffe0011')).response.status).toBe(429);
  });
});
