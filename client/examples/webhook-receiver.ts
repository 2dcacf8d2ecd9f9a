// A webhook endpoint that verifies every delivery with verifyWebhook: it sets itself as the
// platform's endpoint (PATCH /config, which sends a TEST event), asks the sandbox for another test
// webhook, and exits once it has verified both and refused a forged one.
//   PAYMENTS_CLIENT_ID=... PAYMENTS_CLIENT_SECRET=... npx tsx client/examples/webhook-receiver.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentsClient, unwrap, verifyWebhook, WebhookSignatureError, type WebhookEvent } from '@payments-service/contract';

const api = createPaymentsClient({
  baseUrl: process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:3000/2025-10-13',
  clientId: process.env.PAYMENTS_CLIENT_ID,
  clientSecret: process.env.PAYMENTS_CLIENT_SECRET,
});

// The signing secret comes back from PATCH /config, which may deliver its TEST event first.
const { promise: secret, resolve: setSecret } = Promise.withResolvers<string>();
const verified: WebhookEvent[] = [];
let refused = 0;

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    // The raw bytes as received: a parsed and re-serialised body would not verify.
    const event = verifyWebhook(await secret, Buffer.concat(chunks), req.headers);
    verified.push(event);
    console.log(`verified ${event.type} ${event.id}`);
    res.writeHead(204).end();
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    refused++;
    console.log(`refused a delivery: ${error.message}`);
    res.writeHead(400).end();
  }
});
await new Promise<void>((listening) => server.listen(Number(process.env.WEBHOOK_PORT ?? 0), '127.0.0.1', listening));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
console.log(`listening on ${url}`);

try {
  const config = await unwrap(api.PATCH('/config', { body: { webhookEndpoint: url } }));
  if (config.webhookSigningSecret === undefined) throw new Error('PATCH /config returned no webhookSigningSecret');
  setSecret(config.webhookSigningSecret);

  const test = await unwrap(api.POST('/sandbox/webhooks/test'));
  console.log(`sandbox test webhook: the endpoint answered ${test.response_status}`);
  const forged = await fetch(url, { method: 'POST', body: '{"type":"TEST"}', headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9yZ2Vk' } });

  // The TEST event of the endpoint change is sent asynchronously: wait a little for it.
  for (let i = 0; i < 50 && verified.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  if (test.response_status !== 204 || forged.status !== 400 || verified.length < 2 || refused !== 1) {
    throw new Error(`expected 2 verified events and 1 refused, got ${verified.length} and ${refused}`);
  }
  console.log(`done: ${verified.length} webhooks verified, ${refused} forged one refused`);
} finally {
  server.close();
}
