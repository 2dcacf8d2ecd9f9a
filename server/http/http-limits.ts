// Limits of the HTTP layer: how much of a request, how long, and how many connections one client
// may hold. The defaults are what the errors guide states; the timeouts and the connection bound
// are settings (config.ts), read once at start.

export interface HttpLimits {
  /** The request line (path and query included) and the headers together, at most. */
  maxHeaderSize: number;
  /** The request line and headers must have arrived within this time (ms)... */
  headersTimeout: number;
  /** ...and the whole request, its body included, within this one (ms). */
  requestTimeout: number;
  /**
   * How long a connection may sit idle between requests before the server closes it (ms). Far
   * longer than clients keep one idle (those that read Keep-Alive: 5 s; load balancers: 60 s), so
   * the server does not close a connection a client is just reusing: with node's 5 s, a client
   * busy for a few seconds sent its next request on a connection being closed (ECONNRESET, "other
   * side closed"). The headers timeout does not count idle time.
   */
  keepAliveTimeout: number;
  /** Connections one client (an IPv4 address, an IPv6 /64) may hold open at once: more are closed at once. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 60_000,
  requestTimeout: 300_000,
  keepAliveTimeout: 65_000,
  maxConnectionsPerAddress: 256,
};

/**
 * How often node looks for requests past their timeouts (its default, 30 s, would answer a
 * 1-minute timeout up to half a minute late): a tenth of the shorter timeout, at most a second.
 */
export const timeoutCheckInterval = (limits: HttpLimits): number => Math.max(10, Math.min(1_000, Math.floor(Math.min(limits.headersTimeout, limits.requestTimeout) / 10)));
