// Plain JSON calls to the real server for dredd's fixtures (the contract suite's client needs
// vitest's inject, which a script does not have). Each returns the body of the status it expects
// or throws naming the call and what the server answered.
import { randomInt, randomUUID } from 'node:crypto';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export type Json = Record<string, unknown>;

export const basic = ({ clientId, clientSecret }: Credentials): string => `Basic ${btoa(`${clientId}:${clientSecret}`)}`;

/** A short unique suffix, for names the server keeps unique. */
export const unique = (): string => randomUUID().slice(0, 8);
export const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');

export interface ServerCalls {
  /** Sends a request (Basic auth unless `headers.Authorization` says otherwise) and returns the raw response. */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Sends a request and returns its JSON body, or throws unless it answered `status`. */
  expect<T = Json>(status: number, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
}

export function serverCalls(baseUrl: string, credentials: Credentials): ServerCalls {
  const send: ServerCalls['send'] = (method, path, body, headers = {}) => {
    const all: Record<string, string> = { Authorization: basic(credentials), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'POST' ? { 'Idempotency-Key': randomUUID() } : {}), ...headers };
    // An empty Authorization means none (the device-code redeem takes no credentials).
    if (all.Authorization === '') delete all.Authorization;
    return fetch(`${baseUrl}${path}`, { method, headers: all, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  };
  return {
    send,
    async expect<T>(status: number, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
      const res = await send(method, path, body, headers);
      const text = await res.text();
      if (res.status !== status) throw new Error(`fixture ${method} ${path}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
      return (text === '' ? {} : JSON.parse(text)) as T;
    },
  };
}
