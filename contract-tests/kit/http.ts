// The kit's requests: plain fetch against the implementation's base URL, so every answer is seen as
// it was sent (no retries, no client-side defaults), and each one checked against the contract
// before the check reads it. A check sees a Reply; a contract violation fails the check at once.
import { findOperation } from './bundle.ts';
import { answerViolations } from './contract.ts';
import { curlOf, type Redactions } from './curl.ts';
import { CheckFailure } from './failure.ts';
import type { Reply, SentRequest } from './reply.ts';
import { StatusHistory } from './status-history.ts';

export type { Reply } from './reply.ts';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Who a request is from. */
export type Caller = { basic: Credentials } | { bearer: string } | { authorization: string } | 'anonymous';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body. */
  form?: FormData;
  /** A body as bytes or text, with its own content type (or none). */
  raw?: { body: string | Uint8Array; contentType?: string };
  headers?: Record<string, string>;
  /** The Idempotency-Key header. */
  key?: string;
  /** Another caller than the kit's token. */
  as?: Caller;
}


export interface HttpOptions {
  baseUrl: string;
  credentials: Credentials;
  fetch?: typeof fetch;
  /** Bound on one request. */
  timeoutMs: number;
  /** Secrets a failure's curl command names by their environment variable instead. */
  redactions?: Redactions;
  /** Told of every answer (a suite records the statuses it saw). */
  onAnswer?: (reply: Reply, response: Response) => void | Promise<void>;
}

export const basic = ({ clientId, clientSecret }: Credentials): string => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

function authorization(caller: Caller): string | undefined {
  if (caller === 'anonymous') return undefined;
  if ('basic' in caller) return basic(caller.basic);
  if ('bearer' in caller) return `Bearer ${caller.bearer}`;
  return caller.authorization;
}

export class Http {
  readonly baseUrl: string;
  readonly options: HttpOptions;
  /** Every status read of the run, whichever check read it. */
  readonly statuses = new StatusHistory();
  constructor(options: HttpOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Sends a request and checks its answer against the contract; throws a CheckFailure on a violation. */
  async call(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const sentAt = Date.now();
    const reply = await this.send(method, path, options);
    this.enforce(reply);
    const regression = this.statuses.see(reply, sentAt, Date.now());
    if (regression !== undefined) throw new CheckFailure(regression.rule, 'a status its earlier reads can lead to', regression.problem, reply);
    return reply;
  }

  /** Fails with the first contract violation of an answer. */
  enforce(reply: Reply): void {
    const op = findOperation(reply.method, reply.path.split('?')[0] ?? '');
    if (op === undefined) throw new CheckFailure('requests of the kit are operations of the contract', `an operation at ${reply.method} ${reply.path}`, 'none', reply);
    const firstPage = reply.method === 'GET' && !new URLSearchParams(reply.path.split('?')[1] ?? '').has('cursor');
    const [violation] = answerViolations(op, reply.status, reply.headers, reply.text, firstPage);
    if (violation !== undefined) throw new CheckFailure(violation.rule, 'an answer the contract allows', violation.problem, reply);
  }

  /** Sends a request and returns its answer unchecked (for answers checked by the caller). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) search.set(k, String(v));
    const relative = `${path}${search.size > 0 ? `?${search}` : ''}`;
    const headers: Record<string, string> = {};
    const auth = authorization(options.as ?? { basic: this.options.credentials });
    if (auth !== undefined) headers.Authorization = auth;
    let body: RequestInit['body'];
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    } else if (options.form !== undefined) {
      body = options.form;
    } else if (options.raw !== undefined) {
      if (options.raw.contentType !== undefined) headers['Content-Type'] = options.raw.contentType;
      body = options.raw.body as RequestInit['body'];
    }
    if (options.key !== undefined) headers['Idempotency-Key'] = options.key;
    Object.assign(headers, options.headers);
    const send = this.options.fetch ?? fetch;
    let response: Response;
    const where = `${method} ${relative}`;
    try {
      response = await send(`${this.baseUrl}${relative}`, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual', signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (error) {
      const cause = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
      throw new CheckFailure('the implementation answers every request', `an answer to ${where}`, `no answer: ${cause}`);
    }
    const text = await response.clone().text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const requestId = response.headers.get('x-request-id');
    const sent: SentRequest = { method, url: `${this.baseUrl}${relative}`, headers: { ...headers } };
    if (options.body !== undefined) sent.body = JSON.stringify(options.body);
    else if (options.raw !== undefined) sent.body = typeof options.raw.body === 'string' ? options.raw.body : `<${options.raw.body.byteLength} bytes>`;
    else if (options.form !== undefined) sent.form = [...options.form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : { fileName: value.name, type: value.type }]);
    const op = findOperation(method, path);
    const reply: Reply = {
      method,
      path: relative,
      operationId: op?.operationId,
      status: response.status,
      headers: response.headers,
      text,
      body: parsed,
      requestId,
      summary: `${where} → ${response.status}${requestId === null ? ', no X-Request-Id' : `, X-Request-Id: ${requestId}`}`,
      request: sent,
      curl: curlOf(sent, this.options.redactions ?? []),
    };
    await this.options.onAnswer?.(reply, response);
    return reply;
  }
}
