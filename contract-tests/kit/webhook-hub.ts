// The kit's webhook receiver: an HTTP endpoint the implementation is pointed at (PATCH /config) for
// the run, recording every delivery with its raw body and verifying it with the Standard Webhooks
// reference library and the secret the implementation returned. The previous configuration is put
// back when the run ends.
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface WebhookEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface Receiver {
  /** The URL the receiver listens on. */
  listening: string;
  deliveries: Delivery[];
  /** The status (and body) answered from now on. */
  answerWith(status: number, body?: string): void;
  close(): Promise<void>;
}

export async function startReceiver(host: string, port: number, path: string): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let status = 200;
  let answer = '{"received":true}';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        deliveries.push({ headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the webhook receiver has no address');
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    listening: `http://${shownHost}:${address.port}${path}`,
    deliveries,
    answerWith(s, b = '{}') {
      status = s;
      answer = b;
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A delivery checked with the secret: the event, or why it does not verify. */
export type Verified = { delivery: Delivery; event: WebhookEvent; error?: undefined } | { delivery: Delivery; event?: undefined; error: string };

export function verify(secret: string, delivery: Delivery): Verified {
  try {
    const headers = { 'webhook-id': delivery.headers['webhook-id'] ?? '', 'webhook-timestamp': delivery.headers['webhook-timestamp'] ?? '', 'webhook-signature': delivery.headers['webhook-signature'] ?? '' };
    return { delivery, event: new Webhook(secret).verify(delivery.body, headers) as WebhookEvent };
  } catch (error) {
    return { delivery, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The webhook set-up of a run, once the implementation sends to the receiver. */
export interface WebhookHub {
  receiver: Receiver;
  /** The URL the implementation was given. */
  url: string;
  secret: string;
  /**
   * Waits until deliveries whose (unverified) body satisfies `match` number `count`, up to
   * `timeoutMs`, and returns them verified, in the order received.
   */
  waitFor(match: (body: WebhookEvent) => boolean, count: number, timeoutMs: number): Promise<Verified[]>;
}

export function hub(receiver: Receiver, url: string, secret: string): WebhookHub {
  const parsed = (d: Delivery): WebhookEvent | undefined => {
    try {
      return JSON.parse(d.body) as WebhookEvent;
    } catch {
      return undefined;
    }
  };
  return {
    receiver,
    url,
    secret,
    async waitFor(match, count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const matching = () =>
        receiver.deliveries.filter((d) => {
          const body = parsed(d);
          return body !== undefined && match(body);
        });
      while (matching().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return matching().map((d) => verify(secret, d));
    },
  };
}
