// The HTTP server around the application: node's parser held to the HttpLimits (its refusals
// answered in the error shape, client-errors.ts), a bound on each client's connections, and a
// stop that ends within its deadline whatever the open connections are doing.
import { createServer, type RequestListener, type Server } from 'node:http';
import { answerClientErrors } from './client-errors.ts';
import { limitConnectionsPerAddress } from './connection-limit.ts';
import { timeoutCheckInterval, type HttpLimits } from './http-limits.ts';

/** The idle time clients are told to keep a connection for: node's default. */
const ADVERTISED_KEEP_ALIVE_MS = 5_000;

export function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const server = createServer({
    maxHeaderSize: limits.maxHeaderSize,
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    // Clients are told 5 s (Keep-Alive: timeout=5) and those that read it let idle connections go
    // by then, so they hold no more than before; the server waits the whole keepAliveTimeout, so a
    // client that was busy past the 5 s never sends on a connection being closed.
    keepAliveTimeout: Math.min(ADVERTISED_KEEP_ALIVE_MS, limits.keepAliveTimeout),
    keepAliveTimeoutBuffer: Math.max(0, limits.keepAliveTimeout - ADVERTISED_KEEP_ALIVE_MS),
    connectionsCheckingInterval: timeoutCheckInterval(limits),
  });
  limitConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  answerClientErrors(server, app, limits);
  return server;
}

/**
 * Stops accepting connections, closes the idle ones, lets the requests in flight finish for up to
 * `deadlineMs`, then closes every connection left (a request stuck on one is abandoned). Resolves
 * once all are closed.
 */
export function closeWithin(server: Server, deadlineMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    // A keep-alive connection goes idle when its last response is sent: closed then, not kept.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), deadlineMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
