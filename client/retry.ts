// Retries and the per-call timeout, as a wrapper of the fetch openapi-fetch calls (middleware
// cannot resend a request). Only requests that are safe to repeat are retried: GET, HEAD, PUT,
// DELETE and OPTIONS by their HTTP meaning, and any request carrying an Idempotency-Key, which the
// server answers at most once. PATCH and unkeyed POSTs are sent once.
import { IDEMPOTENCY_KEY } from './idempotency.js';

export type Fetch = (request: Request) => Promise<Response>;
/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt (default 2); 0 sends every request once. */
  maxRetries?: number;
  /** First backoff step (default 250 ms); step n waits a random time up to `baseDelayMs * 2^n` ("full jitter"). */
  baseDelayMs?: number;
  /** Cap of one backoff step (default 5 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this (default 60 s) is not waited for: the 429 or 503 is returned. */
  maxRetryAfterMs?: number;
  /** For tests: replaces the timer. */
  sleep?: Sleep;
  /** For tests: replaces Math.random in the jitter. */
  random?: () => number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RETRIED_STATUSES = new Set([429, 503]);

export const isRepeatable = (request: Request): boolean => SAFE_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY);

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Does nothing: a call of it keeps its argument alive until then. */
function held(_value: unknown): void {}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * fetch with the timeout and the retries: the timeout bounds the whole call (attempts and waits
 * between them), combined with the caller's own signal; an abort or a timeout is never retried.
 */
export function resilientFetch(send: Fetch, options: RetryOptions & { timeoutMs?: number | undefined } = {}): Fetch {
  const { maxRetries = 2, baseDelayMs = 250, maxDelayMs = 5_000, maxRetryAfterMs = 60_000, sleep = defaultSleep, random = Math.random, timeoutMs } = options;
  const backoff = (retry: number) => Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** retry));
  return async (input) => {
    const signal = timeoutMs === undefined ? input.signal : AbortSignal.any([input.signal, AbortSignal.timeout(timeoutMs)]);
    // The body can be read once: every attempt sends a clone of this request.
    const request = new Request(input, { signal });
    const retries = isRepeatable(request) ? maxRetries : 0;
    for (let retry = 0; ; retry++) {
      // An attempt other than the last is a copy given the call's signal itself: a clone's signal
      // stops following the original's once garbage is collected (undici holds the link weakly),
      // and the call then ignored its timeout.
      const attempt = retries > retry ? new Request(request.clone(), { signal }) : request;
      let response: Response;
      try {
        response = await send(attempt);
      } catch (error) {
        if (signal.aborted || retry >= retries) throw error;
        await sleep(backoff(retry), signal);
        continue;
      } finally {
        // Read here so the attempt lives until it is answered: a Request follows the signal it
        // was given only while it lives, and fetch keeps only its own copy.
        held(attempt);
      }
      if (retry >= retries || !RETRIED_STATUSES.has(response.status)) return response;
      const delay = retryAfterMs(response.headers.get('Retry-After')) ?? backoff(retry);
      if (delay > maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(delay, signal);
    }
  };
}
