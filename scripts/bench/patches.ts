// `npm run bench:patches`: what each dependency patch (server/dependency-patches/) saves, which is
// the reason it is kept. The server on PostgreSQL with every patch, with each left out in turn and
// with none, in interleaved rounds (the order reversed every other round):
//   - the server's CPU per request, from the kernel's scheduler statistics (on a shared machine a
//     server's requests per second follow whatever else runs; the CPU one request costs barely
//     does), on GET /customers/{id}, GET /customers?limit=20 with two filters and GET /config;
//   - ready to serve: spawn to the first authenticated answer.
// Each figure is the median over the rounds of that round's ratio to the server with every patch.
// Results: printed, and written to bench/patches.md. Environment: BENCH_ROUNDS (7), BENCH_REQUESTS
// (4000 a run). Linux only (/proc).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { DEPENDENCY_PATCHES, type DependencyPatch } from '../../server/dependency-patches/index.ts';
import { cpuPerRequest, load, median } from './load.ts';
import { authorization, freshDatabase, startServer, type Running } from './processes.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const names = Object.keys(DEPENDENCY_PATCHES) as DependencyPatch[];
const variants: Record<string, DependencyPatch[]> = { all: [], ...Object.fromEntries(names.map((n) => [n, [n]])), none: names };
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const say = (line: string) => console.log(line);
const x = (value: number) => `${value.toFixed(2)}x`;

/** Each round's ratio of `runs[v]` to `runs.all`, and the median of those ratios. */
const ratioToAll = (runs: Record<string, number[]>, v: string) => median((runs[v] ?? []).map((value, i) => value / ((runs.all ?? [])[i] ?? Number.NaN)));
const roundsOf = <T>(keys: string[], round: number) => (round % 2 === 0 ? keys : [...keys].reverse()) as T[];

const database = await freshDatabase();
if (database === undefined) throw new Error('the patch benchmark needs PostgreSQL (CONTRACT_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)');
const loadBefore = loadAverage();
say(`Node ${process.version}; ${ROUNDS} interleaved rounds of ${REQUESTS} requests, 10 connections; load average ${loadBefore}`);
const results: Record<string, Record<string, number>> = Object.fromEntries(Object.keys(variants).map((v) => [v, {}]));
const columns: string[] = [];
try {
  // The first start migrates and bootstraps (and fills Node's compile cache); every later one is a restart.
  await (await startServer({ database: 'postgres', url: database.url, leaveOut: [] })).stop();

  const ready: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of roundsOf<string>(Object.keys(variants), round)) {
      const server = await startServer({ database: 'postgres', url: database.url, leaveOut: variants[v] });
      ready[v]?.push(server.readyMs);
      await server.stop();
    }
  }
  columns.push('Ready to serve');
  for (const v of Object.keys(variants)) (results[v] as Record<string, number>)['Ready to serve'] = ratioToAll(ready, v);
  say(`ready to serve, median ms: ${Object.keys(variants).map((v) => `${v} ${median(ready[v] ?? []).toFixed(0)}`).join(', ')}`);

  const servers: Record<string, Running> = {};
  for (const v of Object.keys(variants)) servers[v] = await startServer({ database: 'postgres', url: database.url, leaveOut: variants[v] });
  try {
    const first = servers.all as Running;
    const headers = { authorization, 'content-type': 'application/json' };
    let customerId = '';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${first.base}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: `Customer ${i}` }) });
      customerId = ((await res.json()) as { id: string }).id;
    }
    const routes: [string, string][] = [
      ['GET /customers/{id}', `/customers/${customerId}`],
      ['GET /customers?limit=20&customerType&createdAfter', '/customers?limit=20&customerType=INDIVIDUAL&createdAfter=2020-01-01T00:00:00Z'],
      ['GET /config', '/config'],
    ];
    for (const [label, path] of routes) {
      for (const v of Object.keys(variants)) await load({ url: `${servers[v]?.base}${path}`, headers: { authorization }, duration: 1 }); // warm-up
      const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
      let failed = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const v of roundsOf<string>(Object.keys(variants), round)) {
          const server = servers[v] as Running;
          const run = await cpuPerRequest(server.pid as number, { url: `${server.base}${path}`, headers: { authorization }, amount: REQUESTS });
          cpu[v]?.push(run.us);
          failed += run.failed;
        }
      }
      if (failed > 0) throw new Error(`${label}: ${failed} requests failed`);
      columns.push(label);
      for (const v of Object.keys(variants)) (results[v] as Record<string, number>)[label] = ratioToAll(cpu, v);
      say(`${label}, server CPU µs per request (median): ${Object.keys(variants).map((v) => `${v} ${median(cpu[v] ?? []).toFixed(0)}`).join(', ')}`);
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
} finally {
  await database.drop();
}

const header = `| Left out | ${columns.join(' | ')} |`;
const rows = Object.keys(variants)
  .filter((v) => v !== 'all')
  .map((v) => `| ${v === 'none' ? 'every patch' : `\`${v}\``} | ${columns.map((c) => x(results[v]?.[c] ?? Number.NaN)).join(' | ')} |`);
const cpu = cpus();
const text = [
  '# Dependency patches: what each saves',
  '',
  `\`npm run bench:patches\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadBefore} at the start and ${loadAverage()} at the end.`,
  '',
  'The server on PostgreSQL with one patch left out (or all of them), against the same server with every patch: the median over',
  `${ROUNDS} interleaved rounds of each round's ratio. Requests: the server's CPU per request over ${REQUESTS} requests; ready to serve: spawn to`,
  'the first authenticated answer. Above 1.00x, the patch saves that much; about 1.00x, it saves nothing measurable and goes.',
  '',
  header,
  `|---|${columns.map(() => '---|').join('')}`,
  ...rows,
  '',
].join('\n');
const path = resolve(import.meta.dirname, '..', '..', 'bench', 'patches.md');
writeFileSync(path, text);
say(`\n${header}\n${rows.join('\n')}\n\nwritten to ${path}`);
