// The kit's webhook receiver: an HTTP endpoint the implementation is pointed at (PATCH /config) for
// the run, recording every delivery with its raw body and verifying it with the Standard Webhooks
// reference library and the secret the implementation returned. The previous configuration is put
// back when the run ends.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
export async function startReceiver(host, port, path) {
    const deliveries = [];
    const answers = new Set();
    const server = createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
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
    await new Promise((done, fail) => {
        server.once('error', fail);
        server.listen(port, host, () => done());
    });
    const address = server.address();
    if (address === null || typeof address === 'string')
        throw new Error('the webhook receiver has no address');
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return {
        listening: `http://${shownHost}:${address.port}${path}`,
        deliveries,
        answer(match, status, body) {
            const entry = { match, status, body };
            answers.add(entry);
            return () => answers.delete(entry);
        },
        close: () => new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
        }),
    };
}
export function verify(secret, delivery) {
    try {
        const headers = { 'webhook-id': delivery.headers['webhook-id'] ?? '', 'webhook-timestamp': delivery.headers['webhook-timestamp'] ?? '', 'webhook-signature': delivery.headers['webhook-signature'] ?? '' };
        return { delivery, event: new Webhook(secret).verify(delivery.body, headers) };
    }
    catch (error) {
        return { delivery, error: error instanceof Error ? error.message : String(error) };
    }
}
export const parseDelivery = (d) => {
    try {
        return JSON.parse(d.body);
    }
    catch {
        return undefined;
    }
};
export function hub(receiver, url, secret, ownEndpoint) {
    return {
        receiver,
        url,
        secrets: [secret],
        ownEndpoint,
        async waitFor(match, count, timeoutMs, since = 0) {
            const deadline = Date.now() + timeoutMs;
            const matching = () => receiver.deliveries.filter((d) => {
                if (d.at < since)
                    return false;
                const body = parseDelivery(d);
                return body !== undefined && match(body);
            });
            while (matching().length < count && Date.now() < deadline)
                await new Promise((r) => setTimeout(r, 100));
            return matching();
        },
    };
}
