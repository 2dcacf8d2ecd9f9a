// kill -9 of one of a cluster's server processes in the middle of load (crash-recovery.test.ts:
// one of two; pooler.test.ts: one of three behind PgBouncer): transfers whose sandbox outcome
// is a durable job (004 fails 3 s later, 005 30 s later) and the webhooks every status change
// emits. The killed process is restarted with the same environment and everything is let finish.
// Then: every write the clients sent has exactly one effect (a 201 before the kill included), every
// scheduled outcome was applied exactly once (a failed transfer credited back once), every event
// of the outbox reached the receiver (a second delivery only for one that was in flight in the
// killed process: delivery is at least once, deduplicated by webhook-id, as the webhooks guide
// says), the outbox and the jobs drained, and the ledger check is clean.
import { expect } from 'vitest';
import { postgresAdminUrl, startCluster, type Cluster, type ClusterOptions } from '../support/cluster.ts';
import { advanceClock, startServer, type ServerProcess } from '../support/server-process.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { balanceOf, eventually, expectLedgerConsistent, newHolder, NO_REPLY, ok, sleep, transferBody, type Holder } from './faults-helpers.ts';
import { withDatabase } from '../support/postgres-database.ts';
import { runLoad, settle, statusCounts } from './faults-load.ts';

/** The kinds of write, with the final status and balance effect the sandbox tables give each. */
const KINDS = [
  { direction: 'out', suffix: '000', final: 'COMPLETED', sign: -1 },
  { direction: 'out', suffix: '004', final: 'FAILED', sign: 0 }, // debited, credited back 3 s later
  { direction: 'out', suffix: '005', final: 'FAILED', sign: 0 }, // debited, credited back 30 s later
  { direction: 'in', suffix: '000', final: 'COMPLETED', sign: 1 },
  { direction: 'in', suffix: '005', final: 'FAILED', sign: 0 }, // nothing moves, fails 30 s later
] as const;
type Kind = (typeof KINDS)[number] & { amount: number };

const plan = (holder: Holder) => (n: number) => {
  const kind = KINDS[n % KINDS.length] as (typeof KINDS)[number];
  const amount = 100 + (n % 17);
  return { method: 'POST', path: `/transfer-${kind.direction}`, body: transferBody(holder, kind.direction, kind.suffix, amount), meta: { ...kind, amount } as Kind };
};

/** Starts the cluster, kills its first process under load, restarts it, and checks everything; cleanups are run by the caller. */
export async function crashRecovery(cleanups: (() => Promise<unknown>)[], processes: number, options: ClusterOptions = {}): Promise<void> {
  const cl: Cluster = await startCluster(postgresAdminUrl(), processes, {}, options);
  const started: ServerProcess[] = [];
  cleanups.push(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await cl.close();
  });
  const [a, b, ...others] = cl.servers as [ServerProcess, ServerProcess, ...ServerProcess[]];
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  await ok(a, cl.token, 'PATCH', '/config', { webhookEndpoint: receiver.url }, 200);
  const FUNDING = 1_000_000;
  const holder = await newHolder(a, cl.token, FUNDING, ['000', '004', '005']);

  let live: ServerProcess[] = [a, b, ...others];
  let running = true;
  let killedAt = 0;
  const load = runLoad({ servers: () => live, token: cl.token, workers: 6, running: () => running, plan: plan(holder) });
  await sleep(1_500);
  await a.stop('SIGKILL');
  killedAt = Date.now();
  // What was being delivered when it died: those events (and only those) may arrive twice.
  const leasedAtKill = await withDatabase(cl.databaseUrl, async (db) =>
    (await db.query<{ job: string; id: string | null }>(`select id as job, payload->>'eventId' as id from jobs where status = 'PENDING' and locked_by is not null`)).rows,
  );
  const inFlight = new Set(leasedAtKill.map((r) => r.id).filter((id) => id !== null));
  const restarted = await startServer(cl.env);
  started.push(restarted);
  live = [restarted, b, ...others];
  await sleep(2_000);
  running = false;
  const sent = await load;
  const beforeKill = sent.filter((s) => s.first.status === 201 && s.answeredAt < killedAt);
  const firstCounts = statusCounts(sent.map((s) => s.first));
  expect(Object.keys(firstCounts).filter((status) => status !== '201' && status !== String(NO_REPLY)), JSON.stringify(firstCounts)).toEqual([]);

  // The clients retry what got no answer, with the same key; then the clocks pass every
  // outcome's time (30 s) and the lease of every job the killed process held (60 s).
  await settle(sent, b, cl.token);
  const replayed = sent.filter((s) => s.first.status === NO_REPLY && s.final?.headers.get('idempotent-replayed') === 'true').length;
  // Jumping the clocks past the lease time also expires the leases the living processes hold at
  // that moment, and a delivery under way would then be made again: jump only once they hold none.
  const deadLeases = leasedAtKill.map((r) => r.job);
  await eventually('no job leased but those of the killed process', () =>
    withDatabase(cl.databaseUrl, async (db) => {
      const leased = await db.query<{ n: string }>(`select count(*) as n from jobs where status = 'PENDING' and locked_by is not null and not (id = any($1))`, [deadLeases]);
      return Number(leased.rows[0]?.n) === 0;
    }),
  );
  await Promise.all([restarted, b, ...others].map((server) => advanceClock(server.origin, 70_000)));
  await eventually(
    'every transfer is final, the outbox delivered and every job done',
    () =>
      withDatabase(cl.databaseUrl, async (db) => {
        const open = await db.query<{ n: string }>(`select count(*) as n from transactions where status in ('PENDING', 'PROCESSING')`);
        const undelivered = await db.query<{ n: string }>(`select count(*) as n from webhook_outbox where status <> 'DELIVERED'`);
        const jobs = await db.query<{ n: string }>(`select count(*) as n from jobs where status <> 'DONE' and id not like 'recurring:%'`);
        return Number(open.rows[0]?.n) + Number(undelivered.rows[0]?.n) + Number(jobs.rows[0]?.n) === 0;
      }),
    90_000,
  );
  await sleep(1_500); // a duplicate delivery would land meanwhile

  // Every write has exactly one transaction, in the final status of its kind; those answered before the kill too.
  const ids = sent.map((s) => s.final?.body?.id as string);
  expect(new Set(ids).size).toBe(sent.length);
  const listed = await ok(b, cl.token, 'GET', `/transactions?accountId=${holder.internal}&limit=1`, undefined, 200);
  expect(listed.totalCount).toBe(1 + sent.length);
  const finals = await withDatabase(cl.databaseUrl, async (db) =>
    new Map((await db.query<{ id: string; status: string }>('select id, status from transactions where id = any($1)', [ids])).rows.map((r) => [r.id, r.status])),
  );
  expect(sent.filter((s) => finals.get(s.final?.body?.id as string) !== s.meta.final).map((s) => `${s.meta.direction}${s.meta.suffix}: ${finals.get(s.final?.body?.id as string)}`)).toEqual([]);
  expect(beforeKill.every((s) => finals.has(s.first.body?.id as string))).toBe(true);
  // Each failed transfer-out credited back exactly once: the balance is the completed ones' sum.
  const net = sent.reduce((sum, s) => sum + s.meta.sign * s.meta.amount, 0);
  for (const server of [restarted, b, ...others]) expect(await balanceOf(server, cl.token, holder.internal)).toBe(FUNDING + net);

  await withDatabase(cl.databaseUrl, async (db) => {
    const failedOut = sent.filter((s) => s.meta.direction === 'out' && s.meta.final === 'FAILED').map((s) => s.final?.body?.id as string);
    const movements = await db.query<{ kinds: string[] }>('select array_agg(kind order by created_at, kind) as kinds from ledger_movements where transaction_id = any($1) group by transaction_id', [failedOut]);
    expect(movements.rows.map((r) => r.kinds)).toEqual(failedOut.map(() => ['HOLD', 'RELEASE']));
    // One outcome job per delayed transfer, done.
    const delayed = sent.filter((s) => s.meta.final === 'FAILED').map((s) => s.final?.body?.id as string);
    const jobs = await db.query<{ n: string }>(`select count(*) as n from jobs where kind = 'transactions.scheduled-change' and status = 'DONE' and payload->>'transactionId' = any($1)`, [delayed]);
    expect(Number(jobs.rows[0]?.n)).toBe(delayed.length);
    // One event per status a transaction reached: its final status reported exactly once.
    const finalEvents = await db.query<{ id: string; n: string }>(
      `select payload->'data'->>'id' as id, count(*) as n from webhook_outbox where type in ('OUTGOING_PAYMENT_FAILED', 'INCOMING_PAYMENT_FAILED', 'OUTGOING_PAYMENT_COMPLETED', 'INCOMING_PAYMENT_COMPLETED') and payload->'data'->>'id' = any($1) group by 1`,
      [ids],
    );
    expect(finalEvents.rows.length).toBe(ids.length);
    expect(finalEvents.rows.filter((r) => r.n !== '1')).toEqual([]);

    // The receiver got every event of the outbox; twice only what the killed process was delivering.
    const outbox = (await db.query<{ id: string }>('select id from webhook_outbox')).rows.map((r) => r.id);
    const received = receiver.received.map((w) => w.headers['webhook-id'] as string);
    const receivedOnce = new Set(received);
    expect(outbox.filter((id) => !receivedOnce.has(id)), 'events never delivered').toEqual([]);
    expect([...receivedOnce].filter((id) => !outbox.includes(id)), 'deliveries of no event').toEqual([]);
    const twice = [...receivedOnce].filter((id) => received.filter((r) => r === id).length > 1);
    expect(twice.filter((id) => !inFlight.has(id)), 'delivered twice without a crash in between').toEqual([]);
    console.log(
      `crash recovery (${processes} processes${options.pooler === undefined ? '' : ', through PgBouncer'}): ${sent.length} writes (${beforeKill.length} answered 201 before the kill), first answers ${JSON.stringify(firstCounts)}, ` +
        `${firstCounts[NO_REPLY] ?? 0} unanswered retried (${replayed} had committed: replayed), ${outbox.length} events delivered, ` +
        `${twice.length} twice of ${inFlight.size} in flight at the kill`,
    );
  });
  for (const server of [restarted, b, ...others]) await expectLedgerConsistent(server);
}
