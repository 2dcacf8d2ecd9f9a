// Answers of the HTTP layer itself. Node's parser refuses some requests before the application
// sees them: bytes that are not HTTP/1.1 (among them a body longer than its Content-Length, whose
// extra bytes read as a next request), a request line and headers over HTTP_LIMITS, a request
// that does not arrive in time. Node answers those with an empty body, and resets a connection it
// closes while the client is still sending. Here each gets the documented error body (the
// "Answered before any operation" table of the errors guide), after the answer to any request
// still running on the connection, which is then closed without a reset.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../shared/errors.ts';

/** Limits of the HTTP layer (node's defaults, made explicit: the errors guide states them). */
export const HTTP_LIMITS = {
  /** The request line (path and query included) and the headers together, at most. */
  maxHeaderSize: 16 * 1024,
  /** The request line and headers must have arrived within this time... */
  headersTimeout: 60_000,
  /** ...and the whole request within this one. */
  requestTimeout: 300_000,
} as const;
/** How long a refused connection is read (and dropped) for the client to finish sending and read the answer. */
const LINGER_MS = 5_000;

/** The answer to a failure of node's HTTP parser, by its error code; undefined when the client is gone. */
export function clientErrorAnswer(code: string | undefined): ApiError | undefined {
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'REQUEST_HEADERS_TOO_LARGE', `The request line and headers together are larger than ${HTTP_LIMITS.maxHeaderSize / 1024} KiB; send long values in a JSON body.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.');
    default:
      return new ApiError(
        400,
        'INVALID_INPUT',
        'The request is not valid HTTP/1.1 (for example a body longer than its Content-Length, whose extra bytes are read as a next request).',
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

/** Answers the HTTP layer's refusals of `server` in the documented error shape. */
export function answerClientErrors(server: Server): void {
  // Responses still running per connection: a refusal is written after them, in order.
  const running = new WeakMap<Socket, number>();
  const waiting = new WeakMap<Socket, () => void>();
  const answered = new WeakSet<Socket>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    running.set(socket, (running.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (running.get(socket) ?? 1) - 1;
      running.set(socket, left);
      if (left === 0) waiting.get(socket)?.();
    });
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports again for every later chunk of a refused connection: answered once.
    if (answered.has(socket)) return;
    answered.add(socket);
    const error = clientErrorAnswer(err.code);
    if (error === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = () => {
      waiting.delete(socket);
      if (!socket.writable) return;
      // end() closes only our side: what the client still sends is read and dropped, so it gets the
      // answer instead of a reset; a client that never finishes is cut off.
      socket.end(rawErrorResponse(error));
      socket.resume();
      const linger = setTimeout(() => socket.destroy(), LINGER_MS);
      linger.unref();
      socket.once('close', () => clearTimeout(linger));
    };
    if ((running.get(socket) ?? 0) > 0) waiting.set(socket, answer);
    else answer();
  });
}
