// Idempotency under races, on server processes of one PostgreSQL database (idempotency-races.test.ts:
// two; pooler.test.ts: three behind PgBouncer): 1,000 keys × 3 sends (a third of the keys sent
// three at once across processes, the rest one after the other, alternating processes), of four kinds with real effects. Every key has exactly one effect
// (rows and balance deltas in the database), every replay is the first answer byte for byte with
// `Idempotent-Replayed: true`, a duplicate in flight is 409 IDEMPOTENCY_KEY_IN_USE, the same key
// with another request is 422 IDEMPOTENCY_KEY_REUSED and changes nothing, and nothing is a 5xx.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, postgresAdminUrl, startCluster, type Cluster, type ClusterOptions, type Reply } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { seeded } from './bank-random.ts';
import { kindOf, mismatched, planKeys, RACE_KINDS, type KeyedRequest, type RaceKind } from './races-plan.ts';
import { openRaceWorld, type RaceWorld } from './races-world.ts';

const KEYS = 1_000;
const SENDS = 3;
const MISMATCHED = 100;
const WORKERS = 25;
const SUCCESS: Record<RaceKind, number> = { fund: 200, 'transfer-out': 201, quote: 201, execute: 200 };

interface Sent {
  via: number;
  reply: Reply;
}

const isReplay = (r: Reply) => r.headers.get('idempotent-replayed') === 'true';
const isInUse = (r: Reply) => r.status === 409 && r.body?.code === 'IDEMPOTENCY_KEY_IN_USE';

/** The suite, under `title`, on a cluster of `processes` started with `options`. */
export function idempotencyRaces(title: string, processes: number, options: ClusterOptions = {}): void {
  let cluster: Cluster;
  let world: RaceWorld;
  let plan: KeyedRequest[];
  const originals = new Map<number, Reply>();
  const problems: string[] = [];
  const counts = { sent: 0, originals: 0, replays: 0, inUse: 0, reused: 0, serverErrors: 0 };

  function send(request: KeyedRequest, via: number, path = request.path, body = request.body, extra: Record<string, string> = {}): Promise<Reply> {
    counts.sent++;
    return call(cluster.servers[via % cluster.servers.length] as ServerProcess, cluster.token, 'POST', path, body, { 'Idempotency-Key': request.key, ...extra }).then((reply) => {
      if (reply.status >= 500) {
        counts.serverErrors++;
        problems.push(`key ${request.index} (${request.kind}): ${reply.status} ${reply.text.slice(0, 200)}`);
      }
      return reply;
    });
  }

  /** The three sends of a key, and what each must be relative to the one that did the work. */
  async function race(request: KeyedRequest): Promise<void> {
    const vias = [request.index, request.index + 1, request.index];
    const delay: Record<string, string> = request.delayMs > 0 ? { 'x-test-delay-ms': String(request.delayMs) } : {};
    const sent: Sent[] = request.concurrent
      ? await Promise.all(vias.map(async (via) => ({ via, reply: await send(request, via, request.path, request.body, delay) })))
      : [];
    if (!request.concurrent) for (const via of vias) sent.push({ via, reply: await send(request, via) });
    const label = `key ${request.index} (${request.kind}, ${request.concurrent ? 'concurrent' : 'sequential'})`;
    const firsts = sent.filter((s) => !isReplay(s.reply) && !isInUse(s.reply));
    const original = firsts[0]?.reply;
    if (firsts.length !== 1 || original === undefined) {
      problems.push(`${label}: ${firsts.length} answers did the work (${sent.map((s) => `${s.reply.status}${isReplay(s.reply) ? ' replayed' : ''}`).join(', ')})`);
      return;
    }
    if (!request.concurrent && original !== sent[0]?.reply) problems.push(`${label}: the first send was not the original`);
    if (original.status !== SUCCESS[request.kind]) problems.push(`${label}: the original is ${original.status} ${original.text.slice(0, 200)}`);
    originals.set(request.index, original);
    counts.originals++;
    for (const { reply } of sent.filter((s) => s.reply !== original)) {
      if (isInUse(reply) && request.concurrent && !isReplay(reply)) counts.inUse++;
      else if (isReplay(reply) && reply.status === original.status && reply.text === original.text) counts.replays++;
      else problems.push(`${label}: ${reply.status}${isReplay(reply) ? ' replayed' : ''} ${reply.text.slice(0, 200)} is neither the original (${original.status} ${original.text.slice(0, 120)}) replayed nor 409 IDEMPOTENCY_KEY_IN_USE`);
    }
  }

  /** Runs `work` over `items` with at most `workers` at a time. */
  async function pool<T>(items: readonly T[], workers: number, work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
      }),
    );
  }

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      return (await db.query<T>(text, values)).rows;
    } finally {
      await db.end();
    }
  }

  describe(title, () => {
    const started = Date.now();
    let sendsDone = 0;
    let mismatchedKeys: KeyedRequest[] = [];

    beforeAll(async () => {
      cluster = await startCluster(postgresAdminUrl(), processes, {}, options);
      const executeKeys = Array.from({ length: KEYS }, (_, i) => i).filter((i) => kindOf(i) === 'execute');
      world = await openRaceWorld(cluster, 8, executeKeys);
      plan = planKeys(world, KEYS, 'race');
      await pool(plan, WORKERS, race);
      sendsDone = Date.now();
      // The same key with another request, for a sample of the keys, once all their sends are done.
      const random = seeded(14);
      const sample = new Set<number>();
      while (sample.size < MISMATCHED) sample.add(random.int(0, KEYS - 1));
      mismatchedKeys = plan.filter((r) => sample.has(r.index));
    }, 300_000);

    afterAll(async () => {
      await cluster?.close();
    });

    it(`${KEYS} keys × ${SENDS} sends: one answer did the work, the others replayed it byte for byte or were refused in flight, no 5xx`, () => {
      console.log(`${title}: ${JSON.stringify({ ...counts, setupAndSendsMs: sendsDone - started })}`);
      expect(problems.slice(0, 10)).toEqual([]);
      expect(counts.serverErrors).toBe(0);
      expect(counts.sent).toBe(KEYS * SENDS);
      expect(counts.originals).toBe(KEYS);
      expect(counts.replays + counts.inUse).toBe(KEYS * (SENDS - 1));
      // The window was hit: some duplicates arrived while the first was still running.
      expect(counts.inUse).toBeGreaterThan(50);
      expect(counts.replays).toBeGreaterThan(KEYS);
    });

    it(`the same key with another request is 422 IDEMPOTENCY_KEY_REUSED (${MISMATCHED} keys), and the stored answer is still the original`, async () => {
      await pool(mismatchedKeys, WORKERS, async (request) => {
        const other = mismatched(request, world);
        const refused = await send(request, request.index + 1, other.path, other.body);
        expect(refused.status, `key ${request.index}: ${refused.text}`).toBe(422);
        expect(refused.body?.code).toBe('IDEMPOTENCY_KEY_REUSED');
        counts.reused++;
        const replay = await send(request, request.index);
        expect(isReplay(replay)).toBe(true);
        expect([replay.status, replay.text]).toEqual([originals.get(request.index)?.status, originals.get(request.index)?.text]);
      });
      expect(counts.reused).toBe(MISMATCHED);
      expect(new Set(mismatchedKeys.map((r) => r.kind))).toEqual(new Set(RACE_KINDS));
      const decoy = await query<{ state: string; transaction_id: string | null }>('select state, transaction_id from quotes where id = $1', [world.decoyQuote]);
      expect(decoy).toEqual([{ state: 'PENDING', transaction_id: null }]);
    });

    it('each key had exactly one effect: its rows, and its balance delta', async () => {
      const of = (kind: RaceKind) => plan.filter((r) => r.kind === kind);
      const bodyOf = (r: KeyedRequest) => originals.get(r.index)?.body ?? {};

      // Fundings: two at setup per customer, then one per fund key of its USD account.
      const fundings = await query<{ account: string; n: string }>(
        `select e.account, count(*) as n from ledger_movements m join ledger_entries e on e.movement_id = m.id and e.amount > 0 where m.kind = 'FUND' group by e.account`,
      );
      const expectedFundings = new Map<string, number>();
      for (const c of world.customers) expectedFundings.set(c.usd, 1).set(c.eur, 1);
      for (const r of of('fund')) expectedFundings.set(r.customer.usd, (expectedFundings.get(r.customer.usd) ?? 0) + 1);
      expect(new Map(fundings.map((f) => [f.account, Number(f.n)]))).toEqual(expectedFundings);

      // Transfer-outs: exactly the transactions their originals answered.
      const payouts = await query<{ id: string }>(`select id from transactions where type = 'OUTGOING' and details->>'quoteId' is null`);
      expect(payouts.map((p) => p.id).sort()).toEqual(of('transfer-out').map((r) => bodyOf(r).id as string).sort());

      // Quotes: those made at setup and one per quote key.
      const quotes = await query<{ id: string }>('select id from quotes');
      const expectedQuotes = [...[...world.quotes.values()].map((q) => q.id), world.decoyQuote, ...of('quote').map((r) => bodyOf(r).id as string)];
      expect(quotes.map((q) => q.id).sort()).toEqual(expectedQuotes.sort());

      // Executions: one transaction per executed quote, the one its original answered.
      const executions = await query<{ quote_id: string; ids: string[] }>(`select details->>'quoteId' as quote_id, array_agg(id) as ids from transactions where details->>'quoteId' is not null group by 1`);
      const expectedExecutions = of('execute').map((r) => ({ quote_id: world.quotes.get(r.index)?.id, ids: [bodyOf(r).transactionId] }));
      expect(executions.sort((a, b) => a.quote_id.localeCompare(b.quote_id))).toEqual(expectedExecutions.sort((a, b) => String(a.quote_id).localeCompare(String(b.quote_id))));

      // Balances: the funding plus each key's amount once.
      const expected = new Map<string, number>();
      for (const c of world.customers) expected.set(c.usd, world.funding.usd).set(c.eur, world.funding.eur);
      const add = (account: string, amount: number) => expected.set(account, (expected.get(account) ?? 0) + amount);
      for (const r of of('fund')) add(r.customer.usd, r.amount);
      for (const r of of('transfer-out')) add(r.customer.usd, -r.amount);
      for (const r of of('execute')) {
        const body = bodyOf(r);
        add(r.customer.usd, -(body.totalSendingAmount as number));
        add(r.customer.eur, body.totalReceivingAmount as number);
      }
      const balances = await query<{ id: string; balance: string }>('select id, balance from internal_accounts where id = any($1)', [[...expected.keys()]]);
      expect(new Map(balances.map((b) => [b.id, Number(b.balance)]))).toEqual(expected);

      const report = await fetch(`${(cluster.servers[0] as ServerProcess).origin}/__test/ledger/check`);
      expect(await report.json()).toMatchObject({ consistent: true });
      console.log(`${title}, done in ${Date.now() - started} ms: ${JSON.stringify(counts)}`);
    });
  });
}
