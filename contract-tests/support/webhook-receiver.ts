// A local HTTP endpoint that records the webhooks it receives, for tests of webhook delivery.
import { createServer, type Server } from 'node:http';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The status the receiver answered this delivery with. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status the endpoint answers with from now on. */
  answerWith(status: number, body?: string): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let status = 200;
  let answer = '{"received":true}';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    answerWith(s, b = '{}') {
      status = s;
      answer = b;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return received;
    },
    // A platform whose endpoint is still this receiver keeps delivering to it over kept-alive
    // connections, which a plain close() waits for: cut them.
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
