// Implementations broken on purpose, for the conformance kit's proofs: a small HTTP proxy in front of
// the correct sandbox server that breaks one rule of the contract and passes everything else on
// unchanged. The kit must fail against each, naming the rule; against `none` it must pass. And two
// deployments that break nothing but offer less: `no-sandbox`, a production token; `no-clock`,
// a sandbox without its clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

export const BROKEN_RULES = {
  none: 'nothing: every request and answer passed on as they are',
  'create-200': 'POST /customers answers 200 instead of 201',
  'no-has-more': 'list envelopes without `hasMore`',
  'unprefixed-ids': 'ids without their `<Type>:` prefix',
  'no-auth': 'a request without credentials is accepted (the proxy adds valid ones)',
  'ignore-idempotency-key': 'the Idempotency-Key header is ignored (the proxy drops it)',
  'bad-webhook-signature': 'webhooks arrive with a corrupted webhook-signature',
  'stale-webhook-timestamp': 'webhooks arrive with a webhook-timestamp an hour old (the signature made for it)',
  'has-more-on-full-page': '`hasMore: true` on an exactly full last page, and then an empty page',
  'total-one-too-high': 'every list\'s `totalCount` one more than the items that match',
  'text-errors': 'error answers as text/plain (`404 CUSTOMER_NOT_FOUND`) instead of the JSON error shape',
  'fractional-amounts': 'every `amount` half a minor unit more (1000.5): money not in whole minor units',
  'recount-total': 'a page fetched with a cursor recounts `totalCount` instead of repeating the first page\'s',
  'key-across-operations': 'an Idempotency-Key used on one operation is refused (422 IDEMPOTENCY_KEY_REUSED) on another',
  'status-goes-back': 'a transaction read again after its outcome reads PROCESSING once (COMPLETED, PROCESSING, COMPLETED)',
  'local-offset-times': 'every date-time of an answer written with the offset +02:00 instead of Z (the same instant)',
  'leak-by-id': 'an object another platform, or another customer\'s agent, asks for by its id is answered (200) instead of 404',
  'oldest-first': 'the account lists answer each page oldest first',
  'clock-ignored': 'the sandbox clock does not move: POST /sandbox/clock/advance answers 200 with the clock as it was',
  'clock-goes-back': 'the sandbox clock reads earlier after each advance: every advance by seconds reads as going back by as much',
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
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** The same instant two hours east of UTC. */
const plusTwo = (s: string): string => `${new Date(Date.parse(s) + 2 * 3_600_000).toISOString().slice(0, -1)}+02:00`;
/** A path with its ids replaced: the operation's template, near enough to tell operations apart. */
const template = (method: string, pathname: string): string => `${method} ${pathname.split('/').map((segment) => (decodeURIComponent(segment).includes(':') ? '{id}' : segment)).join('/')}`;
const refuse = (res: ServerResponse, status: number, code: string, message: string): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': crypto.randomUUID() }).end(JSON.stringify({ status, code, message }));
};

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Every string of a JSON value passed through `f`. */
const mapStrings = (value: unknown, f: (s: string) => string): unknown =>
  typeof value === 'string' ? f(value) : Array.isArray(value) ? value.map((v) => mapStrings(v, f)) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)])) : value;

/** Every numeric `amount` of a JSON value, half a unit more. */
const mapAmounts = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(mapAmounts) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'amount' && typeof v === 'number' ? v + 0.5 : mapAmounts(v)])) : value;

const isEnvelope = (body: unknown): body is { data: unknown[]; hasMore?: boolean; nextCursor?: string; totalCount?: number } =>
  body !== null && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data) && 'totalCount' in body;

/** Flips one character of each signature, keeping its form (`v1,<base64>`). */
const corrupt = (signature: string): string => signature.replace(/(v1,)(.)/g, (_m, v: string, c: string) => `${v}${c === 'A' ? 'B' : 'A'}`);

export async function startBrokenProxy(upstreamBaseUrl: string, rule: BrokenRule, credentials: { clientId: string; clientSecret: string }): Promise<BrokenProxy> {
  const upstream = new URL(upstreamBaseUrl);
  let origin = '';
  const ownAuthorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
  /** key-across-operations: the operation each key was first used on. */
  const keys = new Map<string, string>();
  /** status-goes-back: how often each transaction was read with its outcome. */
  const outcomeReads = new Map<string, number>();
  /** clock-goes-back: how far each caller's clock reads earlier than it is (ms). */
  const clockBack = new Map<string, number>();
  /** leak-by-id: the agents' access tokens the proxy saw redeemed. */
  const agentTokens = new Set<string>();
  const hookPrefix = () => `${origin}/__webhooks/`;
  /** The webhooks pass through the proxy, which breaks them: these rules' webhooks. */
  const throughProxy = rule === 'bad-webhook-signature' || rule === 'stale-webhook-timestamp' || rule === 'local-offset-times';
  /** The signing secret the platform's endpoint was given (read from the answers), to sign a changed webhook again. */
  let signingSecret: string | undefined;

  async function forwardWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = decodeURIComponent((req.url ?? '').slice('/__webhooks/'.length));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !DROPPED.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    let body = (await readBody(req)).toString('utf8');
    if (rule === 'bad-webhook-signature') headers['webhook-signature'] = corrupt(headers['webhook-signature'] ?? '');
    else if (signingSecret !== undefined) {
      // Changed, and signed again as the implementation would sign what it sends.
      let at = new Date(Number(headers['webhook-timestamp']) * 1000);
      if (rule === 'stale-webhook-timestamp') at = new Date(at.getTime() - 3_600_000);
      if (rule === 'local-offset-times') body = JSON.stringify(mapStrings(JSON.parse(body), (s) => (UTC_TIME.test(s) ? plusTwo(s) : s)));
      headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
      headers['webhook-signature'] = new Webhook(signingSecret).sign(headers['webhook-id'] ?? '', at, body);
    }
    const answer = await fetch(target, { method: 'POST', headers, body });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (throughProxy && (req.url ?? '').startsWith('/__webhooks/')) return forwardWebhook(req, res);
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
    if (rule === 'clock-ignored' && method === 'POST' && url.pathname.endsWith('/sandbox/clock/advance')) {
      await readBody(req);
      // Accepted, and nothing moves: the clock as a read finds it.
      const read = await fetch(`${upstream.origin}${url.pathname.replace(/\/advance$/, '')}`, { headers: { authorization: req.headers.authorization ?? '' } });
      res.writeHead(read.status, { 'content-type': 'application/json', 'x-request-id': read.headers.get('x-request-id') ?? crypto.randomUUID() }).end(Buffer.from(await read.arrayBuffer()));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !DROPPED.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let body = await readBody(req);
    if (rule === 'no-auth' && !headers.has('authorization')) headers.set('authorization', `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`);
    if (rule === 'ignore-idempotency-key') headers.delete('idempotency-key');
    const key = headers.get('idempotency-key');
    if (rule === 'key-across-operations' && key !== null) {
      const operation = template(method, url.pathname);
      const first = keys.get(key) ?? operation;
      keys.set(key, first);
      if (first !== operation) return refuse(res, 422, 'IDEMPOTENCY_KEY_REUSED', 'This key was used with another request.');
    }
    if (throughProxy && method === 'PATCH' && url.pathname.endsWith('/config') && body.length > 0) {
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

    let answer = await fetch(`${upstream.origin}${url.pathname}${url.search}`, { method, headers, redirect: 'manual', ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) });
    if (rule === 'leak-by-id' && method === 'GET' && answer.status === 404 && headers.has('authorization') && headers.get('authorization') !== ownAuthorization) {
      // Another platform asking by id: found among the first platform's objects.
      const leaked = await fetch(`${upstream.origin}${url.pathname}${url.search}`, { headers: { authorization: ownAuthorization } });
      if (leaked.status === 200) answer = leaked;
      else await leaked.arrayBuffer();
    }
    if (rule === 'leak-by-id' && method === 'GET' && answer.status === 404 && /^Bearer /.test(headers.get('authorization') ?? '')) {
      // An agent asking by id: found among any agent's objects.
      for (const token of agentTokens) {
        const leaked = await fetch(`${upstream.origin}${url.pathname}${url.search}`, { headers: { authorization: `Bearer ${token}` } });
        if (leaked.status === 200) {
          answer = leaked;
          break;
        }
        await leaked.arrayBuffer();
      }
    }
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
      if (rule === 'fractional-amounts') changed = mapAmounts(changed);
      if (rule === 'text-errors' && status >= 400) {
        out['content-type'] = 'text/plain; charset=utf-8';
        res.writeHead(status, out).end(`${status} ${String((json as { code?: unknown }).code)}\n`);
        return;
      }
      if (rule === 'total-one-too-high' && isEnvelope(changed) && typeof changed.totalCount === 'number') changed = { ...changed, totalCount: changed.totalCount + 1 };
      if (rule === 'recount-total' && method === 'GET' && url.searchParams.has('cursor') && isEnvelope(changed)) {
        const now = new URL(url);
        now.searchParams.delete('cursor');
        now.searchParams.set('limit', '1');
        const counted = (await (await fetch(`${upstream.origin}${now.pathname}${now.search}`, { headers })).json()) as { totalCount?: number };
        changed = { ...changed, totalCount: counted.totalCount ?? changed.totalCount };
      }
      if (rule === 'status-goes-back' && method === 'GET' && /\/transactions\/Transaction(:|%3A)/.test(url.pathname)) {
        const tx = changed as { id?: string; status?: string };
        if (tx.id !== undefined && (tx.status === 'COMPLETED' || tx.status === 'FAILED')) {
          const n = (outcomeReads.get(tx.id) ?? 0) + 1;
          outcomeReads.set(tx.id, n);
          if (n === 2) changed = { ...tx, status: 'PROCESSING' };
        }
      }
      if (rule === 'clock-goes-back' && status === 200 && /\/sandbox\/clock(\/advance)?$/.test(url.pathname)) {
        const caller = headers.get('authorization') ?? '';
        const seconds = method === 'POST' ? Number((JSON.parse(body.toString('utf8') || '{}') as { seconds?: unknown }).seconds ?? 0) : 0;
        const back = (clockBack.get(caller) ?? 0) + 2 * seconds * 1000;
        clockBack.set(caller, back);
        const clock = changed as { now: string; offsetMs: number };
        const offsetMs = Math.max(0, clock.offsetMs - back);
        changed = { ...clock, offsetMs, now: new Date(Date.parse(clock.now) - (clock.offsetMs - offsetMs)).toISOString() };
      }
      if (rule === 'local-offset-times') changed = mapStrings(changed, (s) => (UTC_TIME.test(s) ? plusTwo(s) : s));
      if (rule === 'oldest-first' && method === 'GET' && /-accounts$/.test(url.pathname) && isEnvelope(changed)) changed = { ...changed, data: [...changed.data].reverse() };
      const secret = json !== null && typeof json === 'object' ? (json as { webhookSigningSecret?: unknown }).webhookSigningSecret : undefined;
      if (typeof secret === 'string') signingSecret = secret;
      const accessToken = json !== null && typeof json === 'object' ? (json as { accessToken?: unknown }).accessToken : undefined;
      if (typeof accessToken === 'string') agentTokens.add(accessToken);
      if (throughProxy) changed = mapStrings(changed, (s) => (s.startsWith(hookPrefix()) ? decodeURIComponent(s.slice(hookPrefix().length)) : s));
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
