// Signs and posts one webhook with the Standard Webhooks scheme (the `standardwebhooks` package),
// so any Standard Webhooks library verifies it. Uses node:http(s) rather than fetch to control
// name resolution (webhook-target.ts) and to read at most what the caller keeps of the answer.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { nonPublicHostReason, publicOnlyLookup, reservedHostReason } from './webhook-target.ts';

export const DELIVERY_TIMEOUT_MS = 15_000;
const MAX_BODY_CHARS = 10_000;

export interface DeliveryResult {
  /** The endpoint's status, or 0 when it could not be reached. */
  responseStatus: number;
  responseBody: string;
  error?: string;
}

export interface SignedEvent {
  id: string;
  body: string;
  at: Date;
}

const unreachable = (error: string): DeliveryResult => ({ responseStatus: 0, responseBody: '', error });

export function postSignedWebhook(endpoint: string, secret: string, event: SignedEvent, allowPrivateTargets: boolean): Promise<DeliveryResult> {
  const url = new URL(endpoint);
  const reserved = reservedHostReason(url);
  if (reserved !== undefined) return Promise.resolve(unreachable(`not sent: ${reserved}`));
  if (!allowPrivateTargets) {
    const reason = nonPublicHostReason(url);
    if (reason !== undefined) return Promise.resolve(unreachable(`refused: ${reason}`));
  }
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(event.body)),
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(event.at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(event.id, event.at, event.body),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, { method: 'POST', headers, timeout: DELIVERY_TIMEOUT_MS, ...(allowPrivateTargets ? {} : { lookup: publicOnlyLookup }) }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        // Enough read: the rest of the answer is of no use.
        if (body.length >= MAX_BODY_CHARS) res.destroy();
      });
      const done = () => resolve({ responseStatus: res.statusCode ?? 0, responseBody: body.slice(0, MAX_BODY_CHARS) });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => resolve(unreachable(err.message)));
    req.end(event.body);
  });
}
