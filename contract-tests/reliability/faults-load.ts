// Load for the fault tests: workers sending writes, each with an Idempotency-Key of its own, to
// the servers of a cluster in turn while a fault happens; every first answer is kept. Afterwards
// `settle` retries what got no final answer (no reply, or a 5xx) with the same key, as a client
// following the idempotency guide would, so every write ends with exactly one known outcome.
import { randomUUID } from 'node:crypto';
import type { Reply } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { NO_REPLY, sleep, tryCall, type Token } from './faults-helpers.ts';

export interface Write<M> {
  key: string;
  method: string;
  path: string;
  body: unknown;
  /** What the test needs to know about the write (its kind, amount, ...). */
  meta: M;
}

export interface Sent<M> extends Write<M> {
  via: number;
  first: Reply & { ms: number };
  /** Wall-clock time the first answer arrived. */
  answeredAt: number;
  /** The answer that ended it: the first one, or the retry's with the same key. */
  final?: Reply;
  retries: number;
}

/** A write's first answer is final unless there was none or it was a 5xx: those are retried with the same key. */
export const needsRetry = (reply: Reply): boolean => reply.status === NO_REPLY || reply.status >= 500;

/**
 * `workers` loops, each sending `plan(n)` (n counting all writes) to the servers `servers()` lists
 * now, round robin, until `running()` is false. `extraHeaders` go on every request.
 */
export async function runLoad<M>(options: {
  servers: () => ServerProcess[];
  token: Token;
  workers: number;
  running: () => boolean;
  plan: (n: number) => Omit<Write<M>, 'key'>;
  extraHeaders?: (n: number) => Record<string, string>;
  timeoutMs?: number;
}): Promise<Sent<M>[]> {
  const sent: Sent<M>[] = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (options.running()) {
        const i = n++;
        const write = { key: `load-${i}-${randomUUID()}`, ...options.plan(i) };
        const servers = options.servers();
        const via = i % servers.length;
        const server = servers[via] as ServerProcess;
        const first = await tryCall(server, options.token, write.method, write.path, write.body, { 'Idempotency-Key': write.key, ...(options.extraHeaders?.(i) ?? {}) }, options.timeoutMs);
        sent.push({ ...write, via, first, answeredAt: Date.now(), retries: 0 });
        // A worker backs off a little after a failure, as a client would, instead of spinning through the fault.
        if (needsRetry(first)) await sleep(50);
      }
    }),
  );
  return sent;
}

/** Retries every write without a final answer, with its own key, on `server`, until it has one. */
export async function settle<M>(sent: Sent<M>[], server: ServerProcess, token: Token, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const write of sent) {
    write.final = write.first;
    while (needsRetry(write.final)) {
      if (Date.now() > deadline) throw new Error(`write ${write.key} still has no final answer: ${write.final.status} ${write.final.text}`);
      if (write.retries > 0) await sleep(200);
      write.retries++;
      write.final = await tryCall(server, token, write.method, write.path, write.body, { 'Idempotency-Key': write.key });
    }
  }
}

/** Counts of statuses, for the report: `{ "201": 180, "500": 7, "0": 3 }`. */
export const statusCounts = (replies: Reply[]): Record<string, number> =>
  replies.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
