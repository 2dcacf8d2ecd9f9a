// Answers of the HTTP layer itself. Node's parser refuses some requests before the application
// sees them: bytes that are not HTTP/1.1 (among them a malformed chunked body, or a body longer
// than its Content-Length, whose extra bytes read as a next request), a request line and headers
// over the limit, a request that does not arrive in time (HttpLimits). Node answers those with an
// empty body, and resets a connection it closes while the client is still sending. Here each gets
// the documented error body (the "Answered before any operation" table of the errors guide), after
// the answers to the requests on the connection that had arrived whole, and the connection is
// then closed without a reset. A request that had not arrived whole never will (its parser
// failed, or its time ran out): the refusal is its answer, at once, and it never runs, even if
// the rest of its body comes later; nor does anything sent on the connection after the refusal.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../shared/errors.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.ts';

/** How long a refused connection is read (and dropped) for the client to finish sending and read the answer. */
const LINGER_MS = 5_000;

/** The answer to a failure of node's HTTP parser, by its error code; undefined when the client is gone. */
export function clientErrorAnswer(code: string | undefined, limits: HttpLimits = DEFAULT_HTTP_LIMITS): ApiError | undefined {
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'REQUEST_HEADERS_TOO_LARGE', `The request line and headers together are larger than ${limits.maxHeaderSize / 1024} KiB; send long values in a JSON body.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.');
    default:
      return new ApiError(
        400,
        'INVALID_INPUT',
        'The request is not valid HTTP/1.1 (for example a malformed chunked body, or a body longer than its Content-Length, whose extra bytes are read as a next request).',
      );
  }
}

/** The whole HTTP/1.1 response for an error, as written on the socket. */
export function rawErrorResponse(error: ApiError, requestId: string = randomUUID()): string {
  const body = JSON.stringify(error.body());
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Requests the refusal of their connection answered: whatever still reaches the application of them must not run. */
const abandoned = new WeakSet<IncomingMessage>();

/** Whether `req` was answered by its connection's refusal (its body completed too late, or it came after). */
export const isAbandoned = (req: IncomingMessage): boolean => abandoned.has(req);

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** Serves `app` on `server`, answering the HTTP layer's refusals in the documented error shape. */
export function answerClientErrors(server: Server, app: RequestListener, limits: HttpLimits = DEFAULT_HTTP_LIMITS): void {
  // The requests on each connection whose responses have not closed yet.
  const running = new WeakMap<Socket, Set<Exchange>>();
  const refused = new WeakSet<Socket>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    // What the parser still reads on a refused connection is dropped: its answer was given.
    if (refused.has(socket)) {
      abandoned.add(req);
      return;
    }
    let exchanges = running.get(socket);
    if (exchanges === undefined) running.set(socket, (exchanges = new Set()));
    const exchange = { req, res };
    exchanges.add(exchange);
    res.once('close', () => exchanges.delete(exchange));
    app(req, res);
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports again for every later chunk of a refused connection, and its timeout
    // may follow: answered once.
    if (refused.has(socket)) return;
    refused.add(socket);
    const error = clientErrorAnswer(err.code, limits);
    if (error === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = () => {
      if (!socket.writable) return;
      // end() closes only our side: what the client still sends is read and dropped, so it gets the
      // answer instead of a reset; a client that never finishes is cut off.
      socket.end(rawErrorResponse(error));
      socket.resume();
      const linger = setTimeout(() => socket.destroy(), LINGER_MS);
      linger.unref();
      socket.once('close', () => clearTimeout(linger));
    };
    const ahead: Exchange[] = [];
    for (const exchange of running.get(socket) ?? []) {
      if (exchange.req.complete) ahead.push(exchange);
      else abandoned.add(exchange.req);
    }
    if (ahead.length === 0) return answer();
    // After the answers to the requests that arrived whole, in order; a response that never
    // closes (a handler stuck) holds the connection no longer than a request may take.
    let left = ahead.length;
    const cap = setTimeout(answer, limits.requestTimeout);
    cap.unref();
    for (const { res } of ahead) {
      res.once('close', () => {
        left -= 1;
        if (left > 0) return;
        clearTimeout(cap);
        answer();
      });
    }
  });
}
