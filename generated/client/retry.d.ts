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
export declare const isRepeatable: (request: Request) => boolean;
export declare const defaultSleep: Sleep;
/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export declare function retryAfterMs(header: string | null, now?: number): number | undefined;
/**
 * fetch with the timeout and the retries: the timeout bounds the whole call (attempts and waits
 * between them), combined with the caller's own signal; an abort or a timeout is never retried.
 */
export declare function resilientFetch(send: Fetch, options?: RetryOptions & {
    timeoutMs?: number | undefined;
}): Fetch;
