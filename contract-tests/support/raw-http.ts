// HTTP/1.1 through a bare TCP socket, for requests no HTTP client sends (a body longer than its
// Content-Length, a request line of 100,000 characters): the bytes go as written, and every
// response the server writes back is read until it closes the connection, or an error (a reset).
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The socket error that ended the exchange (ECONNRESET when the server reset it), if any. */
  error: string | undefined;
}

/** The responses in `data`, one after another, each framed by its Content-Length. */
function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`an incomplete response head: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status, headers, body: rest.subarray(end + 4, end + 4 + length).toString('utf8') });
    rest = rest.subarray(end + 4 + length);
  }
  return responses;
}

/** Sends `request` as it is to the server at `origin` and reads what comes back until the connection ends. */
export function rawExchange(origin: string, request: string | Buffer, timeoutMs = 10_000): Promise<RawExchange> {
  return openExchange(origin, request, { timeoutMs }).done;
}

export interface OpenExchange {
  /** The connection, still writable after the server's answer (half-open), for what a client sends later. */
  socket: Socket;
  /** What came back, once the connection has ended. */
  done: Promise<RawExchange>;
}

/** `rawExchange`, with the socket kept at hand: more can be written on it while the exchange runs. */
export function openExchange(origin: string, request: string | Buffer, options: { timeoutMs?: number; localAddress?: string } = {}): OpenExchange {
  const { hostname, port } = new URL(origin);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true, ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }) });
  const done = new Promise<RawExchange>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no end of the exchange within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    // The server's end is the end of the exchange: our side closes then too.
    socket.on('end', () => socket.end());
    socket.on('close', () => {
      try {
        resolve({ responses: parseResponses(Buffer.concat(chunks)), error });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
  socket.write(request);
  return { socket, done };
}
