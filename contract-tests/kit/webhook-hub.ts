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
  /** Answers deliveries whose raw body satisfies `match` with `status` and `body` until the returned function is called; others get 200. */
  answer(match: (body: string) => boolean, status: number, body: string): () => void;
  close(): Promise<void>;
}

export async function startReceiver(host: string, port: number, path: string): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const answers = new Set<{ match: (body: string) => boolean; status: number; body: string }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST') {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        deliveries.push({ headers, body, at: Date.now() });
      }
      const special = [...answers].find((a) => a.match(body));
      res.writeHead(special?.status ?? 200, { 'content-type': 'application/json' }).end(special?.body ?? '{"received":true}');
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
    answer(match, status, body) {
      const entry = { match, status, body };
      answers.add(entry);
      return () => answers.delete(entry);
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
  /** The signing secrets the implementation answered, oldest first: a rotation adds one. */
  secrets: string[];
  /** Whether the kit set the endpoint up itself (then it may rotate the secret: the endpoint goes when the run ends). */
  ownEndpoint: boolean;
  /** Waits until `count` deliveries whose body satisfies `match` have come (since `since`, ms), up to `timeoutMs`; returns them in the order received. */
  waitFor(match: (body: WebhookEvent) => boolean, count: number, timeoutMs: number, since?: number): Promise<Delivery[]>;
}

export const parseDelivery = (d: Delivery): WebhookEvent | undefined => {
  try {
    return JSON.parse(d.body) as WebhookEvent;
  } catch {
    return undefined;
  }
};

export function hub(receiver: Receiver, url: string, secret: string, ownEndpoint: boolean): WebhookHub {
  return {
    receiver,
    url,
    secrets: [secret],
    ownEndpoint,
    async waitFor(match, count, timeoutMs, since = 0) {
      const deadline = Date.now() + timeoutMs;
      const matching = () =>
        receiver.deliveries.filter((d) => {
          if (d.at < since) return false;
          const body = parseDelivery(d);
          return body !== undefined && match(body);
        });
      while (matching().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return matching();
    },
  };
}
