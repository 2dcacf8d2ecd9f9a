// The raw-SQL baselines' runner: `connections` loops, each on its own connection, repeating one
// unit of work for `durationS` seconds after a 1-second warm-up, as the HTTP runs are measured;
// and the write both baselines share.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface RawRun {
  /** Units committed per second. */
  rate: number;
  committed: number;
  /** Units the database refused (a debit the balance could not cover, rolled back). */
  refused: number;
  p99: number;
}

export async function rawLoops(pool: pg.Pool, options: { connections: number; durationS: number }, unit: (client: pg.PoolClient) => Promise<boolean>): Promise<RawRun> {
  const latencies: number[] = [];
  let committed = 0;
  let refused = 0;
  const run = async (until: number, counting: boolean) => {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        const client = await pool.connect();
        try {
          while (Date.now() < until) {
            const started = performance.now();
            const ok = await unit(client);
            if (!counting) continue;
            latencies.push(performance.now() - started);
            if (ok) committed++;
            else refused++;
          }
        } finally {
          client.release();
        }
      }),
    );
  };
  await run(Date.now() + 1_000, false);
  const started = Date.now();
  await run(started + options.durationS * 1_000, true);
  const elapsed = (Date.now() - started) / 1_000;
  latencies.sort((a, b) => a - b);
  return { rate: committed / elapsed, committed, refused, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0) };
}

/** An OUTGOING_PAYMENT_COMPLETED event and its webhooks.deliver job, in one statement, as webhooks.repository.ts writes them. */
export async function insertPaymentEvent(client: pg.PoolClient, platformId: string, eventId: string, payload: object, at: Date): Promise<void> {
  await client.query(
    `with event as (insert into webhook_outbox (id, platform_id, type, payload, status, last_response_status, last_error, created_at, delivered_at)
       values ($1, $2, 'OUTGOING_PAYMENT_COMPLETED', $3, 'PENDING', null, null, $4, null))
     insert into jobs (id, kind, payload, status, run_at, max_attempts, locked_by, locked_until, last_error, created_at, updated_at)
     values ($5, 'webhooks.deliver', $6, 'PENDING', $4, 8, null, null, null, $4, $4)`,
    [eventId, platformId, JSON.stringify(payload), at, `Job:${randomUUID()}`, JSON.stringify({ eventId })],
  );
}
