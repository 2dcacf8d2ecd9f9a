// Implementations broken on purpose, for the conformance kit's proofs: a small HTTP proxy in front of
// the correct sandbox server that breaks one rule of the contract and passes everything else on
// unchanged. The kit must fail against each, naming the rule; against `none` it must pass. And two
// deployments that break nothing but offer less: `no-sandbox`, a production token; `no-clock`,
// a sandbox without its clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const BROKEN_RULES = {
  none: 'nothing: every request and answer passed on as they are',
  'create-200': 'POST /customers answers 200 instead of 201',
  'no-has-more': 'list envelopes without `hasMore`',
  'unprefixed-ids': 'ids without their `<Type>:` prefix',
  'no-auth': 'a request without credentials is accepted (the proxy adds valid ones)',
  'ignore-idempotency-key': 'the Idempotency-Key header is ignored (the proxy drops it)',
  'bad-webhook-signature': 'webhooks arrive with a corrupted webhook-signature',
  'has-more-on-full-page': '`hasMore: true` on an exactly full last page, and then an empty page',
  'no-sandbox': 'a production token: the sandbox operations answer 403 SANDBOX_ONLY (the test webhook excepted, as documented)',
  'no-clock': 'a deployment without the sandbox clock (an earlier version): /sandbox/clock answers 404 ROUTE_NOT_FOUND',
} as const;
export type BrokenRule = keyof typeof BROKEN_RULES;

export interface BrokenProxy {
  /** The API base URL through the proxy (the upstream's base path kept). */
  baseUrl: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers and those the body rewrite changes. */
const DROPPED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'upgrade']);
const EMPTY_PAGE = 'conformance-proxy-empty-page';
const ID = /^[A-Z][A-Za-z]*:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Every string of a JSON value passed through `f`. */
const mapStrings = (value: unknown, f: (s: string) => string): unknown =>
  typeof value === 'string' ? f(value) : Array.isArray(value) ? value.map((v) => mapStrings(v, f)) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)])) : value;

const isEnvelope = (body: unknown): body is { data: unknown[]; hasMore?: boolean; nextCursor?: string; totalCount?: number } =>
  body !== null && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data) && 'totalCount' in body;

/** Flips one character of each signature, keeping its form (`v1,<base64>`). */
const corrupt = (signature: string): string => signature.replace(/(v1,)(.)/g, (_m, v: string, c: string) => `${v}${c === 'A' ? 'B' : 'A'}`);

export async function startBrokenProxy(upstreamBaseUrl: string, rule: BrokenRule, credentials: { clientId: string; clientSecret: string }): Promise<BrokenProxy> {
  const upstream = new URL(upstreamBaseUrl);
  let origin = '';
  const hookPrefix = () => `${origin}/__webhooks/`;

  async function forwardWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = decodeURIComponent((req.url ?? '').slice('/__webhooks/'.length));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !DROPPED.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    headers['webhook-signature'] = corrupt(headers['webhook-signature'] ?? '');
    const answer = await fetch(target, { method: 'POST', headers, body: new Uint8Array(await readBody(req)) });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (rule === 'bad-webhook-signature' && (req.url ?? '').startsWith('/__webhooks/')) return forwardWebhook(req, res);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', origin);
    if (rule === 'no-sandbox' && url.pathname.includes('/sandbox/') && !url.pathname.endsWith('/sandbox/webhooks/test')) {
      await readBody(req);
      // As a production deployment answers: the credentials first (the same request with a body
      // the server refuses after authenticating it, so nothing happens; a GET, which changes
      // nothing, as it is), then SANDBOX_ONLY.
      const auth: Record<string, string> = { 'content-type': 'application/json' };
      if (req.headers.authorization !== undefined) auth.authorization = req.headers.authorization;
      const probe = method === 'GET' ? { method, headers: auth } : { method: 'POST', headers: auth, body: '{"conformanceProxyProbe":true}' };
      const checked = await fetch(`${upstream.origin}${url.pathname}`, probe);
      if (checked.status === 401 || checked.status === 429) {
        const out: Record<string, string> = {};
        checked.headers.forEach((value, name) => {
          if (!DROPPED.has(name)) out[name] = value;
        });
        res.writeHead(checked.status, out).end(Buffer.from(await checked.arrayBuffer()));
        return;
      }
      res.writeHead(403, { 'content-type': 'application/json', 'x-request-id': crypto.randomUUID() }).end(JSON.stringify({ status: 403, code: 'SANDBOX_ONLY', message: 'This operation exists only in the sandbox.' }));
      return;
    }
    if (rule === 'no-clock' && url.pathname.includes('/sandbox/clock')) {
      await readBody(req);
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': crypto.randomUUID() }).end(JSON.stringify({ status: 404, code: 'ROUTE_NOT_FOUND', message: `No route ${method} ${url.pathname}.` }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !DROPPED.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let body = await readBody(req);
    if (rule === 'no-auth' && !headers.has('authorization')) headers.set('authorization', `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`);
    if (rule === 'ignore-idempotency-key') headers.delete('idempotency-key');
    if (rule === 'bad-webhook-signature' && method === 'PATCH' && url.pathname.endsWith('/config') && body.length > 0) {
      // The endpoint the platform is given is the proxy's, which passes the webhooks on, corrupted.
      const parsed = JSON.parse(body.toString('utf8')) as { webhookEndpoint?: unknown };
      if (typeof parsed.webhookEndpoint === 'string') parsed.webhookEndpoint = `${hookPrefix()}${encodeURIComponent(parsed.webhookEndpoint)}`;
      body = Buffer.from(JSON.stringify(parsed));
    }
    if (rule === 'has-more-on-full-page' && method === 'GET' && url.searchParams.get('cursor') === EMPTY_PAGE) {
      // The page after a full last page: empty, and only now `hasMore: false`.
      url.searchParams.delete('cursor');
      const first = (await (await fetch(`${upstream.origin}${url.pathname}${url.search}`, { headers })).json()) as { totalCount?: number };
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': crypto.randomUUID() }).end(JSON.stringify({ data: [], hasMore: false, totalCount: first.totalCount ?? 0 }));
      return;
    }

    const answer = await fetch(`${upstream.origin}${url.pathname}${url.search}`, { method, headers, redirect: 'manual', ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!DROPPED.has(name)) out[name] = value;
    });
    let status = answer.status;
    let text = Buffer.from(await answer.arrayBuffer()).toString('utf8');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      let changed: unknown = json;
      if (rule === 'create-200' && method === 'POST' && url.pathname.endsWith('/customers') && status === 201) status = 200;
      if (rule === 'no-has-more' && isEnvelope(changed)) {
        const { hasMore: _dropped, ...rest } = changed;
        changed = rest;
      }
      if (rule === 'unprefixed-ids') changed = mapStrings(changed, (s) => ID.exec(s)?.[1] ?? s);
      if (rule === 'has-more-on-full-page' && method === 'GET' && isEnvelope(changed)) {
        const limit = Number(url.searchParams.get('limit') ?? 20);
        if (changed.data.length === limit && changed.hasMore === false) changed = { ...changed, hasMore: true, nextCursor: EMPTY_PAGE };
      }
      if (rule === 'bad-webhook-signature') changed = mapStrings(changed, (s) => (s.startsWith(hookPrefix()) ? decodeURIComponent(s.slice(hookPrefix().length)) : s));
      if (changed !== json) text = JSON.stringify(changed);
    }
    res.writeHead(status, out).end(text);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`broken proxy: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the broken proxy has no address');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl: `${origin}${upstream.pathname.replace(/\/+$/, '')}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
