// Every connection ends in bounded time, whatever the client sends or does not send: a request
// whose body stops arriving, or whose head does, is answered 408 at the configured timeout and its
// connection closed, and the request never runs, even if the rest of it comes later; a stop lets
// the requests in flight finish, closes what is left at its deadline and exits. Servers of the
// file's own, with timeouts of a second or two instead of minutes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeoutCheckInterval } from '../../server/http/http-limits.ts';
import { loadConfig } from '../../server/config.ts';
import { target } from '../support/api.ts';
import { startInProcess, type TestServer } from '../support/in-process-server.ts';
import { openExchange, rawExchange, type RawResponse } from '../support/raw-http.ts';
import { jsonHeaders, newCredentials, serverEnv, startServer } from '../support/server-process.ts';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const timeouts = { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) };
/**
 * How late node may notice a timeout (it looks every so often), plus a busy machine's delay (this
 * file's server shares its process with other files' tests). Without an answer at the timeout, there
 * is none at all: the exchanges give up after 15 s.
 */
const LATE_MS = timeoutCheckInterval(loadConfig(serverEnv(timeouts)).http) + 4_000;
const GIVE_UP = { timeoutMs: 15_000 };

function expectTimeoutAnswer(responses: RawResponse[]) {
  expect(responses.map((r) => r.status)).toEqual([408]);
  expect(responses[0]?.headers.connection).toBe('close');
  expect(JSON.parse(responses[0]?.body ?? '')).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
}

// The HTTP layer is the same on every target: run once, on the embedded database's pass.
describe.skipIf(target !== 'pglite')('a request that stops arriving', { concurrent: true }, () => {
  const token = newCredentials();
  let server: TestServer;
  beforeAll(async () => {
    server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, ...timeouts });
  });
  afterAll(() => server?.stop());

  const head = (path: string, headers: string) => `POST ${new URL(server.baseUrl).pathname}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}`;

  it('a body short of its Content-Length is 408 REQUEST_TIMEOUT at the request timeout; the rest sent after the answer does not run it', async () => {
    const platformCustomerId = `short-${crypto.randomUUID()}`;
    const body = JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId });
    const authorization = jsonHeaders(token).Authorization;
    // The probe's request: a Content-Length the body never reaches (here, 10 bytes short).
    const started = performance.now();
    const exchange = openExchange(server.origin, `${head('/customers', `Authorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)}${body.slice(0, -10)}`, GIVE_UP);
    // A client that goes on sending once answered: the request it completes must not run.
    exchange.socket.once('data', () => exchange.socket.write(body.slice(-10)));
    const { responses, error } = await exchange.done;
    const ms = performance.now() - started;
    expect(error).toBeUndefined();
    expectTimeoutAnswer(responses);
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + LATE_MS);
    const res = await fetch(`${server.baseUrl}/customers?platformCustomerId=${platformCustomerId}`, { headers: jsonHeaders(token) });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('a chunked body that stops arriving is 408 too', async () => {
    const started = performance.now();
    const { responses, error } = await rawExchange(server.origin, `${head('/customers', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n')}5\r\n{"a":`, GIVE_UP.timeoutMs);
    expect(error).toBeUndefined();
    expectTimeoutAnswer(responses);
    expect(performance.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + LATE_MS);
  });

  it('a request head that stops arriving is 408 at the headers timeout', async () => {
    const started = performance.now();
    const { responses, error } = await rawExchange(server.origin, head('/customers', 'Content-Type: application/json\r\n'), GIVE_UP.timeoutMs);
    const ms = performance.now() - started;
    expect(error).toBeUndefined();
    expectTimeoutAnswer(responses);
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + LATE_MS);
  });

  it('a refusal waits for the request still running before it, but no longer than the request timeout', async () => {
    const authorization = jsonHeaders(token).Authorization;
    const path = new URL(server.baseUrl).pathname;
    // A request that runs past the request timeout (a test control holds it 6 s), then bytes that are not HTTP.
    const request = `GET ${path}/config HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nX-Test-Delay-Ms: 6000\r\n\r\nNOT HTTP\r\n\r\n`;
    const started = performance.now();
    const { responses, error } = await rawExchange(server.origin, request, GIVE_UP.timeoutMs);
    const ms = performance.now() - started;
    expect(error).toBeUndefined();
    // The refusal alone, at the request timeout: the connection was not held for the stuck answer.
    expect(responses.map((r) => r.status)).toEqual([400]);
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(6_000);
  });

  it('a connection that sends nothing is closed at the headers timeout', async () => {
    const started = performance.now();
    const { responses } = await rawExchange(server.origin, '', GIVE_UP.timeoutMs);
    expect(responses.map((r) => r.status)).toEqual([408]);
    expect(performance.now() - started).toBeLessThan(HEADERS_TIMEOUT_MS + LATE_MS);
  });

  it('a kept-alive connection idle past the 5 s it advertises still takes the next request (a busy client reuses it late)', async () => {
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const answers = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    const answered = async (count: number) => {
      while (answers().length < count && !socket.closed) await new Promise((r) => setTimeout(r, 20));
    };
    const request = `GET ${new URL(server.baseUrl).pathname}/config HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${jsonHeaders(token).Authorization}\r\n\r\n`;
    socket.write(request);
    await answered(1);
    expect(received).toMatch(/keep-alive: timeout=5/i);
    // Past the advertised 5 s, node's own second of grace and the 1 s headers timeout (idle time is none of them).
    await new Promise((r) => setTimeout(r, 7_000));
    expect(socket.closed).toBe(false);
    socket.write(request);
    await answered(2);
    expect(answers()).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    socket.destroy();
  });
});

describe.skipIf(target !== 'pglite')('a stop', () => {
  it('with nothing stuck ends once the request in flight is answered, not at the deadline: its keep-alive connection is closed then', async () => {
    const token = newCredentials();
    // Long: node alone would close the idle connection at its keep-alive timeout (5 s), this stop at once.
    const SHUTDOWN_TIMEOUT_MS = 20_000;
    const server = await startInProcess({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    // fetch keeps its connection open for the next request once answered: the first one opens it,
    // so that the slow one is in flight on it, not waiting to connect, when the stop comes.
    expect((await fetch(`${server.baseUrl}/config`, { headers: jsonHeaders(token) })).status).toBe(200);
    const slow = fetch(`${server.baseUrl}/config`, { headers: { ...jsonHeaders(token), 'X-Test-Delay-Ms': '800' } });
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const stopped = server.stop();
    expect((await slow).status).toBe(200);
    await stopped;
    expect(performance.now() - started).toBeLessThan(4_000);
  });


  it('SIGTERM: the request in flight is answered, a stuck connection is closed at the deadline, and the process exits', async () => {
    const token = newCredentials();
    const SHUTDOWN_TIMEOUT_MS = 1_500;
    // The default request timeout (5 minutes): only the stop's deadline can end the stuck request.
    const server = await startServer({ PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    try {
      const base = new URL(server.baseUrl);
      const stuck = openExchange(server.origin, `POST ${base.pathname}/customers HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":12345`, { timeoutMs: 60_000 });
      // A request that takes a while (a test control delays its answer), in flight when the signal
      // comes, on a connection a first request opened (and by when the stuck one was accepted).
      expect((await fetch(`${server.baseUrl}/config`, { headers: jsonHeaders(token) })).status).toBe(200);
      const slow = fetch(`${server.baseUrl}/config`, { headers: { ...jsonHeaders(token), 'X-Test-Delay-Ms': '1000' } });
      await new Promise((r) => setTimeout(r, 500));
      const started = performance.now();
      const exited = server.stop('SIGTERM');
      const answered = await slow;
      expect(answered.status).toBe(200);
      expect(await answered.json()).toHaveProperty('id');
      const { responses } = await stuck.done;
      const stuckClosedMs = performance.now() - started;
      // Closed, not answered: the request was cut off by the stop.
      expect(responses).toEqual([]);
      expect(await exited).toBe(0);
      const exitedMs = performance.now() - started;
      expect(stuckClosedMs).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 50);
      // Before main.ts gives up on the rest of the stop (5 s after the deadline, exit code 1).
      expect(exitedMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 4_500);
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
