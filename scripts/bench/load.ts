// One autocannon run, and the median of interleaved rounds: every variant runs once per round,
// one after the other, so a machine that slows down mid-run slows every variant alike.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = 10;

export interface Load {
  rps: number;
  p99: number;
  /** Non-2xx answers and connection errors. */
  failed: number;
  ok: number;
}

export async function load(options: autocannon.Options): Promise<Load> {
  const result = await autocannon({ duration: SECONDS, connections: CONNECTIONS, pipelining: 1, ...options });
  return { rps: result.requests.average, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts, ok: result['2xx'] };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Runs each variant once per round, `rounds` times, and keeps each variant's median rps and p99 and its summed failures. */
export async function interleaved<K extends string>(variants: Record<K, () => Promise<Load>>, rounds = ROUNDS): Promise<Record<K, Load>> {
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as Load[]])) as Record<K, Load[]>;
  for (let round = 0; round < rounds; round++) {
    for (const key of Object.keys(variants) as K[]) runs[key].push(await variants[key]());
  }
  return Object.fromEntries(
    (Object.entries(runs) as [K, Load[]][]).map(([k, r]) => [
      k,
      { rps: median(r.map((x) => x.rps)), p99: median(r.map((x) => x.p99)), failed: r.reduce((n, x) => n + x.failed, 0), ok: r.reduce((n, x) => n + x.ok, 0) },
    ]),
  ) as Record<K, Load>;
}

/** CPU time process `pid` has used so far, in nanoseconds (Linux scheduler statistics). */
const cpuNanoseconds = (pid: number): number => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

/**
 * The CPU the process `pid` (a server) spends per request over `amount` requests: on a shared
 * machine its share of the CPU, and so its requests per second, moves with everything else running,
 * but the work one request costs it barely does.
 */
export async function cpuPerRequest(pid: number, options: autocannon.Options & { amount: number }): Promise<{ us: number; failed: number }> {
  const before = cpuNanoseconds(pid);
  const result = await autocannon({ connections: CONNECTIONS, pipelining: 1, ...options });
  return { us: (cpuNanoseconds(pid) - before) / 1000 / result.requests.total, failed: result.non2xx + result.errors + result.timeouts };
}
