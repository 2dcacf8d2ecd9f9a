// The incoming-payment and outgoing-payment webhooks of transfers, cancellations and sandbox
// funding, on a server of this file's own (its webhook endpoint is configured here, and delayed
// outcomes need its platform's sandbox clock moved: the outcome is there when the advance answers). Each status a transaction takes, the one it is created in
// included, is one event whose `type` follows the status (WebhookEventType) and whose `data` is
// the transaction at that status; every delivery is signed (Standard Webhooks) and its body
// matches the webhook's schema.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentsClient } from '../../client/index.ts';
import { target } from '../support/api.ts';
import {
  cancelTransaction,
  checkedClientOf,
  created,
  customerWithExternalAccount,
  fund,
  getTransaction,
  listTransactions,
  type Transaction,
  transferIn,
  transferOut,
} from '../support/factories.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { advancePlatformClock, transactionNow } from '../support/platform-clock.ts';
import { jsonHeaders, newCredentials } from '../support/server-process.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

const token = newCredentials();

interface PaymentEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Transaction;
}

describe.skipIf(target !== 'pglite')('payment webhooks', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let via: PaymentsClient;
  let secret: string;

  beforeAll(async () => {
    server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret });
    receiver = await startWebhookReceiver();
    via = checkedClientOf(server.baseUrl, token);
    const { data, response } = await via.PATCH('/config', { body: { webhookEndpoint: receiver.url } });
    if (response.status !== 200 || data?.webhookSigningSecret === undefined) throw new Error(`PATCH /config: ${response.status}`);
    secret = data.webhookSigningSecret;
    await receiver.waitFor(1); // the TEST event of the new endpoint
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const parse = (w: ReceivedWebhook) => ({ delivery: w, event: JSON.parse(w.body) as PaymentEvent });
  /** The payment events received about this transaction, in the order the events happened. */
  const eventsOf = (transactionId: string) =>
    receiver.received
      .map(parse)
      .filter(({ event }) => /_PAYMENT_/.test(event.type) && event.data?.id === transactionId)
      .sort((x, y) => Date.parse(x.event.timestamp) - Date.parse(y.event.timestamp));

  /**
   * Waits until `count` payment events about the transaction have arrived (10 s at most), then a
   * moment more so an extra one would show, and checks each delivery: signature, headers, schema.
   */
  async function eventsFor(transactionId: string, count: number): Promise<PaymentEvent[]> {
    const deadline = Date.now() + 10_000;
    while (eventsOf(transactionId).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const received = eventsOf(transactionId);
    for (const { delivery, event } of received) await expectSignedDelivery(delivery, event);
    return received.map((r) => r.event);
  }

  async function expectSignedDelivery(delivery: ReceivedWebhook, event: PaymentEvent) {
    const { headers } = delivery;
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers['webhook-id']).toBe(event.id);
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,/);
    // Verified over the raw body with the platform's secret (also checks the timestamp's tolerance).
    expect(new Webhook(secret).verify(delivery.body, headers)).toEqual(event);
    expect(() => new Webhook(`whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`).verify(delivery.body, headers)).toThrow();
    expect(Date.parse(event.timestamp)).not.toBeNaN();
    const schema = event.type.startsWith('INCOMING_') ? 'IncomingPaymentWebhookEvent' : 'OutgoingPaymentWebhookEvent';
    expect(await validateAgainst(`#/components/schemas/${schema}`, event), delivery.body).toEqual([]);
  }

  const types = (events: PaymentEvent[]) => events.map((e) => e.type);
  const get = (id: string) => getTransaction(id, via);

  describe('outgoing-payment', () => {
    it('a COMPLETED transfer-out: one OUTGOING_PAYMENT_COMPLETED whose data is the transaction', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 10_000, via });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_250 }, { via }));
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['OUTGOING_PAYMENT_COMPLETED']);
      expect(events[0]?.data).toEqual(tx);
      expect(events[0]?.data).toEqual(await get(tx.id));
    });

    it.each([
      ['002', 'INSUFFICIENT_FUNDS'],
      ['003', 'ACCOUNT_CLOSED'],
    ] as const)('a transfer-out created FAILED (%s): one OUTGOING_PAYMENT_FAILED with failureReason %s', async (suffix, failureReason) => {
      const { internal, external } = await customerWithExternalAccount(suffix, { funding: 10_000, via });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_250 }, { via }));
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['OUTGOING_PAYMENT_FAILED']);
      expect(events[0]?.data).toMatchObject({ status: 'FAILED', failureReason });
      expect(events[0]?.data).toEqual(await get(tx.id));
    });

    it('004: OUTGOING_PAYMENT_PROCESSING at creation, OUTGOING_PAYMENT_FAILED when it fails', async () => {
      const { internal, external } = await customerWithExternalAccount('004', { funding: 10_000, via });
      const tx = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 1_250 }, { via }));
      expect(tx.status).toBe('PROCESSING');
      expect(types(await eventsFor(tx.id, 1))).toEqual(['OUTGOING_PAYMENT_PROCESSING']);
      await advancePlatformClock(via, 3_000);
      const failed = await transactionNow(via, tx.id, 'FAILED');
      const events = await eventsFor(tx.id, 2);
      expect(types(events)).toEqual(['OUTGOING_PAYMENT_PROCESSING', 'OUTGOING_PAYMENT_FAILED']);
      expect(events[0]?.data).toEqual(tx);
      expect(events[1]?.data).toEqual(failed);
      expect(events[1]?.data).toMatchObject({ status: 'FAILED', failureReason: 'BANK_REJECTED' });
    }, 40_000);

    it('005: OUTGOING_PAYMENT_PENDING at creation, OUTGOING_PAYMENT_FAILED about 30 s later; a cancelled one: OUTGOING_PAYMENT_FAILED with status CANCELLED, and nothing when its failure comes due', async () => {
      const a = await customerWithExternalAccount('005', { funding: 10_000, via });
      const b = await customerWithExternalAccount('005', { funding: 10_000, via });
      const failing = created(await transferOut({ source: { accountId: a.internal.id }, destination: { accountId: a.external.id }, amount: 1_000 }, { via }));
      const cancelledLater = created(await transferOut({ source: { accountId: b.internal.id }, destination: { accountId: b.external.id }, amount: 2_000 }, { via }));
      expect([failing.status, cancelledLater.status]).toEqual(['PENDING', 'PENDING']);
      const pending = await eventsFor(failing.id, 1);
      expect(types(pending)).toEqual(['OUTGOING_PAYMENT_PENDING']);
      expect(pending[0]?.data).toEqual(failing);

      const cancel = await cancelTransaction(cancelledLater.id, { reason: 'stop' }, { via });
      expect(cancel.response.status).toBe(200);
      const cancelEvents = await eventsFor(cancelledLater.id, 2);
      expect(types(cancelEvents)).toEqual(['OUTGOING_PAYMENT_PENDING', 'OUTGOING_PAYMENT_FAILED']);
      expect(cancelEvents[0]?.data).toEqual(cancelledLater);
      expect(cancelEvents[1]?.data).toEqual(cancel.data);
      expect(cancelEvents[1]?.data).toMatchObject({ status: 'CANCELLED', failureReason: 'CANCELLED' });
      expect(cancelEvents[1]?.data).toEqual(await get(cancelledLater.id));

      await advancePlatformClock(via, 31_000);
      const failed = await transactionNow(via, failing.id, 'FAILED');
      const failEvents = await eventsFor(failing.id, 2);
      expect(types(failEvents)).toEqual(['OUTGOING_PAYMENT_PENDING', 'OUTGOING_PAYMENT_FAILED']);
      expect(failEvents[1]?.data).toEqual(failed);
      expect(failEvents[1]?.data).toMatchObject({ failureReason: 'BANK_REJECTED' });
      // The cancelled transfer's failure, due with its twin's, was dropped: no third event.
      expect(types(await eventsFor(cancelledLater.id, 2))).toEqual(['OUTGOING_PAYMENT_PENDING', 'OUTGOING_PAYMENT_FAILED']);
    }, 60_000);

    it('a refused transfer-out (400) sends nothing', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { funding: 1_000, via });
      const refused = await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 5_000 }, { via });
      expect(refused.response.status).toBe(400);
      // A later transfer's event has arrived: none about the refused one came before it.
      const later = created(await transferOut({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 500 }, { via }));
      await eventsFor(later.id, 1);
      const aboutAccount = receiver.received.map(parse).filter(({ event }) => event.data?.destination?.destinationType === 'ACCOUNT' && event.data.destination.accountId === external.id);
      expect(aboutAccount.map(({ event }) => event.data.id)).toEqual([later.id]);
    });
  });

  describe('incoming-payment', () => {
    it('a COMPLETED transfer-in: one INCOMING_PAYMENT_COMPLETED whose data is the transaction', async () => {
      const { internal, external } = await customerWithExternalAccount('000', { via });
      const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 7_000, description: 'top-up' }, { via }));
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['INCOMING_PAYMENT_COMPLETED']);
      expect(events[0]?.data).toEqual(tx);
      expect(events[0]?.data).toEqual(await get(tx.id));
    });

    it.each(['002', '003'])('a transfer-in created FAILED (%s): one INCOMING_PAYMENT_FAILED', async (suffix) => {
      const { internal, external } = await customerWithExternalAccount(suffix, { via });
      const tx = created(await transferIn({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount: 7_000 }, { via }));
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['INCOMING_PAYMENT_FAILED']);
      expect(events[0]?.data).toEqual(await get(tx.id));
      expect(events[0]?.data.status).toBe('FAILED');
    });

    it('004 and 005: INCOMING_PAYMENT_PENDING at creation (PROCESSING, PENDING), INCOMING_PAYMENT_FAILED when they fail', async () => {
      const p = await customerWithExternalAccount('004', { via });
      const q = await customerWithExternalAccount('005', { via });
      const processing = created(await transferIn({ source: { accountId: p.external.id }, destination: { accountId: p.internal.id }, amount: 7_000 }, { via }));
      const pending = created(await transferIn({ source: { accountId: q.external.id }, destination: { accountId: q.internal.id }, amount: 7_000 }, { via }));
      expect([processing.status, pending.status]).toEqual(['PROCESSING', 'PENDING']);
      for (const tx of [processing, pending]) {
        const events = await eventsFor(tx.id, 1);
        expect(types(events)).toEqual(['INCOMING_PAYMENT_PENDING']);
        expect(events[0]?.data).toEqual(tx);
      }
      await advancePlatformClock(via, 31_000);
      for (const tx of [processing, pending]) {
        const failed = await transactionNow(via, tx.id, 'FAILED');
        const events = await eventsFor(tx.id, 2);
        expect(types(events)).toEqual(['INCOMING_PAYMENT_PENDING', 'INCOMING_PAYMENT_FAILED']);
        expect(events[1]?.data).toEqual(failed);
        expect(events[1]?.data).toMatchObject({ failureReason: 'BANK_REJECTED' });
      }
    }, 60_000);

    it('sandbox funding: one INCOMING_PAYMENT_COMPLETED whose data is the funding transaction, without source', async () => {
      const { internal } = await customerWithExternalAccount('000', { via });
      expect((await fund(internal.id, 2_222, undefined, { via })).response.status).toBe(200);
      const page = await listTransactions({ accountId: internal.id }, via);
      expect(page.totalCount).toBe(1);
      const tx = page.data[0] as Transaction;
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['INCOMING_PAYMENT_COMPLETED']);
      expect(events[0]?.data).toEqual(tx);
      expect(events[0]?.data).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 2_222 } });
      expect(events[0]?.data).not.toHaveProperty('source');
    });

    it('an UMA payment received: one INCOMING_PAYMENT_COMPLETED whose data is its transaction', async () => {
      const { customer } = await customerWithExternalAccount('000', { via });
      const res = await fetch(`${server.baseUrl}/sandbox/uma/receive`, {
        method: 'POST',
        headers: jsonHeaders(token),
        body: JSON.stringify({ senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress: customer.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1_234 }),
      });
      const tx = (await res.json()) as Transaction;
      expect(res.status).toBe(200);
      const events = await eventsFor(tx.id, 1);
      expect(types(events)).toEqual(['INCOMING_PAYMENT_COMPLETED']);
      expect(events[0]?.data).toEqual(tx);
      expect(events[0]?.data).toMatchObject({ source: { sourceType: 'UMA_ADDRESS' }, receivedAmount: { amount: 1_234 } });
    });
  });

  it('every payment event is delivered once, under its own id', () => {
    const payment = receiver.received.map(parse).filter(({ event }) => /_PAYMENT_/.test(event.type));
    expect(payment.length).toBeGreaterThanOrEqual(20);
    const ids = payment.map(({ event }) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
