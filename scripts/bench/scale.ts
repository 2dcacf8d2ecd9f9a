// `npm run bench -- --scale`: what a list page and a write cost when the tables hold a million rows,
// against the same request when they hold a thousand. One database per size, each seeded through the
// API (scale-world.ts) and grown in SQL (grow.ts), each with a server of its own; the requests go
// one at a time, interleaved across the sizes round after round, and each figure is the median of
// its rounds. On PostgreSQL at 1,000 and 1,000,000 rows per table, on PGlite at 1,000 and 100,000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDatabase } from '../../contract-tests/support/postgres-database.ts';
import { grow } from './grow.ts';
import { interleaved, load, median, type Load } from './load.ts';
import { authorization, startServer, type Running, type Variant } from './processes.ts';
import { ratio } from './report.ts';
import { listRequests, type ListRequest } from './scale-requests.ts';
import { seedWorld, type World } from './scale-world.ts';

const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 11);
/** Writes are cheap to repeat and vary more: twice the rounds, after two unmeasured ones. */
const WRITE_ROUNDS = 2 * ROUNDS + 1;
const WRITE_WARM_UP = 2;
const POSTGRES_ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const PGLITE_ROWS = Number(process.env.BENCH_SCALE_PGLITE_ROWS ?? 100_000);
const SMALL = 1_000;
/** A page at the larger size may cost at most this many times the same page at 1,000 rows. */
export const LIST_GOAL = 2;
/** A write likewise. */
export const WRITE_GOAL = 1.5;

/** A server on a grown database. */
interface Sized {
  rows: number;
  server: Running;
  world: World;
  requests: ListRequest[];
  /** Per request, the same request with the cursor of its first page (undefined: a single page). */
  next: (string | undefined)[];
  done(): Promise<void>;
}

export interface ScaleFigures {
  database: 'PostgreSQL' | 'PGlite';
  small: number;
  large: number;
  /** Per request label and page, the median milliseconds at each size. */
  lists: { label: string; page: 'first' | 'next'; small: number; large: number }[];
  writes: { label: string; small: number; large: number }[];
  /** Transfer-outs per second at 10 connections (the counts' writers contending), at each size. */
  concurrent: { small: Load; large: Load };
  failures: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const pretty = (msValue: number) => `${msValue < 10 ? msValue.toFixed(1) : msValue.toFixed(0)} ms`;

async function timed(base: string, path: string, init: RequestInit = {}): Promise<{ ms: number; ok: boolean; body: unknown }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  const ms = performance.now() - started;
  return { ms, ok: res.status < 300, body: res.status < 300 ? JSON.parse(text) : text };
}

const headersOf = (r: { bearer?: string }) => ({ authorization: r.bearer === undefined ? authorization : `Bearer ${r.bearer}` });

/** Seeds the server's database, grows it through `sql`, and finds each request's next-page cursor. */
async function prepare(rows: number, server: Running, world: World): Promise<Omit<Sized, 'done' | 'server'>> {
  const requests = listRequests(world);
  const next: (string | undefined)[] = [];
  for (const request of requests) {
    const first = await timed(server.base, request.path, { headers: headersOf(request) });
    if (!first.ok) throw new Error(`${request.label} at ${rows} rows: ${JSON.stringify(first.body)}`);
    const cursor = (first.body as { nextCursor?: string }).nextCursor;
    next.push(cursor === undefined ? undefined : `${request.path}${request.path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`);
  }
  return { rows, world, requests, next };
}

async function postgresAt(rows: number, say: (line: string) => void): Promise<Sized> {
  const database = await createDatabase(process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', `bench_scale_${rows}`);
  const variant: Variant = { database: 'postgres', url: database.url };
  const server = await startServer(variant).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  const done = async () => {
    await server.stop();
    await database.drop();
  };
  try {
    const world = await seedWorld(server.base);
    say(`PostgreSQL, ${fmt(rows)} rows per table:`);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await grow(client, world, rows, say);
    } finally {
      await client.end();
    }
    return { ...(await prepare(rows, server, world)), server, done };
  } catch (err) {
    await done();
    throw err;
  }
}

async function pgliteAt(rows: number, say: (line: string) => void): Promise<Sized> {
  const folder = mkdtempSync(join(tmpdir(), `bench-scale-${rows}-`));
  const dataDir = join(folder, 'data');
  const variant: Variant = { database: 'pglite', dataDir };
  const remove = () => rmSync(folder, { recursive: true, force: true });
  let server: Running | undefined;
  try {
    // Seeded through a server, grown by PGlite in this process while no server has the folder open.
    const seeding = await startServer(variant);
    const world = await seedWorld(seeding.base).finally(() => seeding.stop());
    say(`PGlite, ${fmt(rows)} rows per table:`);
    const pglite = await PGlite.create(dataDir);
    try {
      await grow(pglite, world, rows, say);
    } finally {
      await pglite.close();
    }
    server = await startServer(variant);
    const running = server;
    return {
      ...(await prepare(rows, running, world)),
      server: running,
      done: async () => {
        await running.stop();
        remove();
      },
    };
  } catch (err) {
    await server?.stop();
    remove();
    throw err;
  }
}

async function measure(database: ScaleFigures['database'], sizes: [Sized, Sized], say: (line: string) => void): Promise<ScaleFigures> {
  const [small, large] = sizes;
  const times = small.requests.map(() => ({ first: [[], []] as number[][], next: [[], []] as number[][] }));
  let failures = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which size goes first, so neither always follows the other's work.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (let i = 0; i < small.requests.length; i++) {
      for (const s of order) {
        const sized = sizes[s] as Sized;
        const request = sized.requests[i] as ListRequest;
        const first = await timed(sized.server.base, request.path, { headers: headersOf(request) });
        if (!first.ok) failures++;
        times[i]?.first[s]?.push(first.ms);
        const nextPath = sized.next[i];
        if (nextPath !== undefined) {
          const next = await timed(sized.server.base, nextPath, { headers: headersOf(request) });
          if (!next.ok) failures++;
          times[i]?.next[s]?.push(next.ms);
        }
      }
    }
  }
  const lists: ScaleFigures['lists'] = [];
  small.requests.forEach((request, i) => {
    const t = times[i];
    if (t === undefined) return;
    lists.push({ label: request.label, page: 'first', small: median(t.first[0] ?? []), large: median(t.first[1] ?? []) });
    // A cursor page exists when both sizes have more than one page.
    if ((t.next[0]?.length ?? 0) > 0 && (t.next[1]?.length ?? 0) > 0) lists.push({ label: request.label, page: 'next', small: median(t.next[0] ?? []), large: median(t.next[1] ?? []) });
  });
  say(`${database}: lists measured (${ROUNDS} rounds)`);

  // Writes, one at a time: a customer created, a transfer-in, a quote created and executed.
  const writeTimes = { customer: [[], []] as number[][], transferIn: [[], []] as number[][], quote: [[], []] as number[][] };
  const json = { authorization, 'content-type': 'application/json' };
  let n = 0;
  for (let round = -WRITE_WARM_UP; round < WRITE_ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const s of order) {
      const { server, world } = sizes[s] as Sized;
      n++;
      const customer = await timed(server.base, '/customers', { method: 'POST', headers: json, body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: `scale-write-${n}`, fullName: 'Jane Doe' }) });
      const transferIn = await timed(server.base, '/transfer-in', { method: 'POST', headers: json, body: JSON.stringify({ source: { accountId: world.customer.external }, destination: { accountId: world.customer.usd }, amount: 100 }) });
      const quoteBody = { source: { sourceType: 'ACCOUNT', accountId: world.customer.usd }, destination: { destinationType: 'ACCOUNT', accountId: world.customer.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 };
      const quote = await timed(server.base, '/quotes', { method: 'POST', headers: json, body: JSON.stringify(quoteBody) });
      const executed = await timed(server.base, `/quotes/${encodeURIComponent((quote.body as { id?: string }).id ?? '')}/execute`, { method: 'POST', headers: { authorization } });
      for (const r of [customer, transferIn, quote, executed]) if (!r.ok) failures++;
      if (round < 0) continue;
      writeTimes.customer[s]?.push(customer.ms);
      writeTimes.transferIn[s]?.push(transferIn.ms);
      writeTimes.quote[s]?.push(quote.ms + executed.ms);
    }
  }
  const writes = [
    { label: 'POST /customers', t: writeTimes.customer },
    { label: 'POST /transfer-in', t: writeTimes.transferIn },
    { label: 'POST /quotes + POST /quotes/{id}/execute', t: writeTimes.quote },
  ].map(({ label, t }) => ({ label, small: median(t[0] ?? []), large: median(t[1] ?? []) }));

  // Many writers at once on the same lists' counts: transfer-outs of one unit at 10 connections.
  const transferOut = (sized: Sized) => () =>
    load({
      url: `${sized.server.base}/transfer-out`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ source: { accountId: sized.world.customer.usd }, destination: { accountId: sized.world.customer.external }, amount: 1 }),
      duration: 3,
    });
  const concurrent = await interleaved({ small: transferOut(small), large: transferOut(large) });
  failures += concurrent.small.failed + concurrent.large.failed;
  say(`${database}: writes measured`);
  return { database, small: small.rows, large: large.rows, lists, writes, concurrent, failures };
}

export async function scaleBenchmark(say: (line: string) => void): Promise<ScaleFigures[]> {
  const figures: ScaleFigures[] = [];
  for (const [database, at, rows] of [
    ['PostgreSQL', postgresAt, POSTGRES_ROWS],
    ['PGlite', pgliteAt, PGLITE_ROWS],
  ] as const) {
    const sizes: Sized[] = [];
    try {
      sizes.push(await at(SMALL, say));
      sizes.push(await at(rows, say));
      figures.push(await measure(database, sizes as [Sized, Sized], say));
    } finally {
      for (const s of sizes) await s.done();
    }
  }
  return figures;
}

/** Every request at both sizes, as a markdown table. */
export function scaleTable(figures: ScaleFigures[]): string {
  const [postgres, pglite] = figures;
  const lines = [
    `| Request | Page | PostgreSQL ${fmt(postgres?.small ?? 0)} rows | ${fmt(postgres?.large ?? 0)} rows | Ratio | PGlite ${fmt(pglite?.small ?? 0)} rows | ${fmt(pglite?.large ?? 0)} rows | Ratio | ≤ ${LIST_GOAL}x |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of postgres?.lists ?? []) {
    const other = pglite?.lists.find((r) => r.label === row.label && r.page === row.page);
    const r1 = row.large / row.small;
    const r2 = other === undefined ? undefined : other.large / other.small;
    const met = r1 <= LIST_GOAL && (r2 === undefined || r2 <= LIST_GOAL);
    lines.push(
      `| ${row.label.replaceAll('|', '\\|')} | ${row.page} | ${pretty(row.small)} | ${pretty(row.large)} | ${ratio(r1)} | ${other === undefined ? '' : pretty(other.small)} | ${other === undefined ? '' : pretty(other.large)} | ${r2 === undefined ? '' : ratio(r2)} | ${met ? 'yes' : '**no**'} |`,
    );
  }
  return lines.join('\n');
}

/** Per endpoint, the worst ratio of its first and of its cursor pages over all its filters; then the writes. */
export function scaleSummary(figures: ScaleFigures[]): string {
  const [postgres, pglite] = figures;
  const endpoint = (label: string) => label.split('?')[0] as string;
  const worst = (f: ScaleFigures | undefined, path: string, page: 'first' | 'next') => {
    const ratios = (f?.lists ?? []).filter((r) => endpoint(r.label) === path && r.page === page).map((r) => r.large / r.small);
    return ratios.length === 0 ? undefined : Math.max(...ratios);
  };
  const show = (x: number | undefined) => (x === undefined ? '' : ratio(x));
  const lines = [
    `| Worst ratio over the endpoint's filters | PostgreSQL ${fmt(postgres?.large ?? 0)} / ${fmt(postgres?.small ?? 0)} rows: first page · next page | PGlite ${fmt(pglite?.large ?? 0)} / ${fmt(pglite?.small ?? 0)} rows: first · next | Goal | Met |`,
    '|---|---|---|---|---|',
  ];
  const paths = [...new Set((postgres?.lists ?? []).map((r) => endpoint(r.label)))];
  for (const path of paths) {
    const values = [worst(postgres, path, 'first'), worst(postgres, path, 'next'), worst(pglite, path, 'first'), worst(pglite, path, 'next')];
    const met = values.every((v) => v === undefined || v <= LIST_GOAL);
    lines.push(`| ${path} | ${show(values[0])} · ${show(values[1])} | ${show(values[2])} · ${show(values[3])} | ≤ ${LIST_GOAL}x | ${met ? 'yes' : '**no**'} |`);
  }
  for (const w of postgres?.writes ?? []) {
    const other = pglite?.writes.find((x) => x.label === w.label);
    const r1 = w.large / w.small;
    const r2 = other === undefined ? undefined : other.large / other.small;
    const met = r1 <= WRITE_GOAL && (r2 === undefined || r2 <= WRITE_GOAL);
    lines.push(`| ${w.label} (${pretty(w.small)} → ${pretty(w.large)} on PostgreSQL) | ${ratio(r1)} | ${show(r2)} | ≤ ${WRITE_GOAL}x | ${met ? 'yes' : '**no**'} |`);
  }
  if (postgres !== undefined) {
    const r = postgres.concurrent.large.rps / postgres.concurrent.small.rps;
    lines.push(
      `| Transfer-outs/s at 10 connections (${postgres.concurrent.small.rps.toFixed(0)} → ${postgres.concurrent.large.rps.toFixed(0)} on PostgreSQL) | ${ratio(r)} of the 1,000-row rate | ${pglite === undefined ? '' : ratio(pglite.concurrent.large.rps / pglite.concurrent.small.rps)} | ≥ ${ratio(1 / WRITE_GOAL)} | ${r >= 1 / WRITE_GOAL ? 'yes' : '**no**'} |`,
    );
  }
  const failures = figures.reduce((n, f) => n + f.failures, 0);
  lines.push(`| Requests that failed (non-2xx) | ${figures[0]?.failures ?? 0} | ${figures[1]?.failures ?? 0} | 0 | ${failures === 0 ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

/** How the figures were made, for bench/results.md. */
export function scaleNotes(figures: ScaleFigures[]): string[] {
  return [
    `Each database is seeded through the API (scripts/bench/scale-world.ts: a customer with 20 transactions, its accounts, external accounts, agent, documents; a business with a beneficial owner and a verification; a token; an Embedded Wallet with three sessions), then every listed table is grown in SQL to its size (scripts/bench/grow.ts: one INSERT ... SELECT over generate_series per table, copying the seed's rows and varying what the lists filter on, then VACUUM ANALYZE as autovacuum would after such a load). ${figures.map((f) => `${f.database}: ${fmt(f.small)} and ${fmt(f.large)} rows per table`).join('; ')}.`,
    `A figure is the median of ${ROUNDS} requests, one at a time, each round asking every request of both sizes in turn (the order of the sizes alternating), so the machine's load falls on both alike. "first" is the page without a cursor, "next" the same request with its first page's cursor. Filters ask for the seed's rows (a customer's, an account's), a share of the grown rows (a status, a type, a currency), or a time window of the hour before the seed (grown rows are 30 seconds apart at every size, so that hour holds the same rows); updatedAfter=-30s finds the seed's rows and 20 grown rows created all through the history but updated just before the seed, the list of what changed since a sync.`,
    `Writes: one at a time, interleaved likewise, ${WRITE_ROUNDS} rounds after ${WRITE_WARM_UP} unmeasured ones; the quote figure is its two requests together. Transfer-outs/s: autocannon at 10 connections for 3 s, 3 interleaved rounds, each size on its own server and database.`,
  ];
}
