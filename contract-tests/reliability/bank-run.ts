// One bank run: two server processes (or `processes`, through `cluster`'s pooler) on a fresh
// PostgreSQL database, a bank made over the API, the seed's operations sent by concurrent workers
// across the processes while a reader takes snapshots, then (every payment settled) the checker.
// Answers the violations and the numbers.
import { pino } from 'pino';
import { openDatabase } from '../../server/db/database.ts';
import { A_FEW_SECONDS_MS } from '../../server/simulation/timing.ts';
import { call, postgresAdminUrl, startCluster, type ClusterOptions } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { checkBank } from './bank-checker.ts';
import { Journal, type Violation } from './bank-journal.ts';
import { BankModel } from './bank-model.ts';
import { emptyTally, planOperations, runOperation, type PlanShape, type Tally } from './bank-operations.ts';
import { seeded } from './bank-random.ts';
import { startReader } from './bank-reader.ts';
import { openBank, type WorldShape } from './bank-world.ts';

export interface BankRunOptions {
  seed: number;
  operations: number;
  workers: number;
  world: WorldShape;
  plan: PlanShape;
  /** Extra environment of both server processes (the deliberate fault). */
  env?: NodeJS.ProcessEnv;
  /** How many server processes (2 unless given), and a pooler in front of the database. */
  processes?: number;
  cluster?: ClusterOptions;
}

/** The seed every run keeps (bank.test.ts, two processes on one database). */
export const FIXED_BANK_SEED = 20251013;

/**
 * The seeds a file runs: `BANK_SEEDS` (integers separated by commas) when set, to replay a failure
 * or widen a run, else `seed`.
 */
export function bankSeeds(seed: number): number[] {
  const seeds = process.env.BANK_SEEDS?.split(',').map(Number) ?? [seed];
  if (!seeds.every(Number.isSafeInteger)) throw new Error(`BANK_SEEDS must be integers separated by commas, got ${process.env.BANK_SEEDS}`);
  return seeds;
}

/** The bank of bank.test.ts: 40 workers among 10 customers, most on 3 hot ones. */
export const bankOptions = (seed: number, operations: number): BankRunOptions => ({
  seed,
  operations,
  workers: 40,
  world: { customers: 10, agents: 3, usdFunding: 200_000, eurFunding: 100_000 },
  plan: { customers: 10, hot: 3, hotShare: 0.7, largeShare: 0.2, duplicateShare: 0.1 },
});

export interface BankRunResult {
  seed: number;
  violations: Violation[];
  tally: Tally;
  statuses: Record<number, number>;
  replays: number;
  inUse: number;
  snapshots: number;
  apiReads: number;
  ms: { setup: number; operations: number; settle: number; check: number };
}

/** Waits until no payment is on its way (the quotes to external accounts settle by a job, a few seconds later). */
async function settle(db: Awaited<ReturnType<typeof openDatabase>>['db'], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await db.selectFrom('transactions').select((eb) => eb.fn.countAll<string>().as('n')).where('status', 'in', ['PENDING', 'PROCESSING']).executeTakeFirstOrThrow();
    if (Number(open.n) === 0 || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const bankSummary = (r: BankRunResult) =>
  `seed ${r.seed}: ${JSON.stringify({ tally: r.tally, statuses: r.statuses, replays: r.replays, inUse: r.inUse, snapshots: r.snapshots, apiReads: r.apiReads, ms: r.ms })}`;

export async function runBank(options: BankRunOptions): Promise<BankRunResult> {
  const started = Date.now();
  const cluster = await startCluster(postgresAdminUrl(), options.processes ?? 2, options.env, options.cluster);
  const handle = await openDatabase({ databaseUrl: cluster.databaseUrl, pgliteDataDir: '' }, pino({ level: 'silent' }));
  try {
    const journal = new Journal(cluster);
    const model = new BankModel();
    const prefix = `bank-${options.seed}`;
    const world = await openBank(journal, model, options.world, prefix);
    const setupDone = Date.now();

    const reader = await startReader(cluster.databaseUrl, journal, new Set(model.currencyOf.keys()));
    const planned = planOperations(seeded(options.seed), options.plan, options.operations);
    const tally = emptyTally();
    let next = 0;
    // Workers take the planned operations in order; the interleaving is whatever the servers make of it.
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        for (let op = planned[next++]; op !== undefined; op = planned[next++]) await runOperation({ journal, model, world, tally, prefix }, op);
      }),
    );
    const operationsDone = Date.now();
    const read = await reader.stop();

    // The quotes to external accounts settle a few seconds after they were sent: the platform's
    // sandbox clock brings that time now (its advance answers once they have), instead of the run
    // waiting it out; the settlement is the same job either way.
    const advanced = await call(cluster.servers[0] as ServerProcess, cluster.token, 'POST', '/sandbox/clock/advance', { seconds: A_FEW_SECONDS_MS / 1000 });
    if (advanced.status !== 200) throw new Error(`advanceSandboxClock: ${advanced.status} ${advanced.text}`);
    await settle(handle.db, 30_000);
    const settled = Date.now();
    const apiBalances = new Map<string, number>();
    for (const account of model.currencyOf.keys()) {
      const reply = await journal.send({ via: apiBalances.size, method: 'GET', path: `/internal-accounts/${account}`, label: 'final balance' });
      apiBalances.set(account, (reply.body?.balance as { amount: number } | undefined)?.amount ?? Number.NaN);
    }
    const violations = [...journal.violations, ...(await checkBank(handle.db, model, apiBalances))];
    return {
      seed: options.seed,
      violations,
      tally,
      statuses: Object.fromEntries([...journal.statuses].sort(([a], [b]) => a - b)),
      replays: journal.replays,
      inUse: journal.inUse,
      snapshots: read.snapshots,
      apiReads: read.apiReads,
      ms: { setup: setupDone - started, operations: operationsDone - setupDone, settle: settled - operationsDone, check: Date.now() - settled },
    };
  } finally {
    await handle.close();
    await cluster.close();
  }
}
