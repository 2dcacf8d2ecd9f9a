// The server through PgBouncer in transaction mode against the same server direct, as ratios of
// one run (server/README.md, "Running at scale"). One server process per variant, on one database,
// 10 connections each, interleaved rounds:
//   - direct: today's settings (statements named per connection, the credential cache);
//   - direct, DATABASE_POOL_MODE=transaction: what the unnamed statements alone cost;
//   - through PgBouncer (transaction mode, as many server connections as the process's pool), with
//     DATABASE_DIRECT_URL for the LISTEN session: the recommended setting behind a pooler;
//   - through PgBouncer without DATABASE_DIRECT_URL: no credential cache, every request's token
//     checked in the database.
import pg from 'pg';
import { startPgbouncer } from '../../contract-tests/support/pgbouncer.ts';
import { interleaved, load, ROUNDS, SECONDS, type Load } from './load.ts';
import { authorization, startServer, type Running } from './processes.ts';
import { ratio, type Row } from './report.ts';

const VARIANTS = ['direct', 'unnamed', 'pooled', 'pooledUncached'] as const;
type Variant = (typeof VARIANTS)[number];

export async function poolerBenchmark(databaseUrl: string, say: (line: string) => void): Promise<{ rows: Row[]; notes: string[] }> {
  // As server/README.md asks of a database behind a pooler, whose connections cannot turn JIT off themselves.
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`alter database ${pg.escapeIdentifier(new URL(databaseUrl).pathname.slice(1))} set jit = off`);
  await admin.end();
  const pooler = await startPgbouncer(databaseUrl, { poolSize: 10 });
  const pooledUrl = pooler.urlOf(databaseUrl);
  const servers: Partial<Record<Variant, Running>> = {};
  const rows: Row[] = [];
  try {
    servers.direct = await startServer({ database: 'postgres', url: databaseUrl });
    servers.unnamed = await startServer({ database: 'postgres', url: databaseUrl, env: { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: databaseUrl } });
    servers.pooled = await startServer({ database: 'postgres', url: pooledUrl, env: { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: databaseUrl } });
    servers.pooledUncached = await startServer({ database: 'postgres', url: pooledUrl, env: { DATABASE_POOL_MODE: 'transaction' } });
    const headers = { authorization, 'content-type': 'application/json' };
    const base = (servers.direct as Running).base;
    let customer = '';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: `Customer ${i}` }) });
      customer = ((await res.json()) as { id: string }).id;
    }
    const routes: [string, { path: string; method?: 'POST'; body?: string }][] = [
      ['GET /customers/{id}', { path: `/customers/${customer}` }],
      ['GET /customers?limit=20', { path: '/customers?limit=20' }],
      ['POST /customers', { path: '/customers', method: 'POST', body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Load Customer', currencies: ['USD'] }) }],
    ];
    for (const [label, route] of routes) {
      const run = (v: Variant, duration = SECONDS) => () => load({ url: `${(servers[v] as Running).base}${route.path}`, headers, duration, ...(route.method === undefined ? {} : { method: route.method, body: route.body }) });
      for (const v of VARIANTS) await run(v, 1)(); // warm-up
      const r: Record<Variant, Load> = await interleaved(Object.fromEntries(VARIANTS.map((v) => [v, run(v)])) as Record<Variant, () => Promise<Load>>);
      const failed = VARIANTS.reduce((n, v) => n + r[v].failed, 0);
      say(`${label}: direct ${r.direct.rps.toFixed(0)} req/s, unnamed statements ${r.unnamed.rps.toFixed(0)}, through PgBouncer ${r.pooled.rps.toFixed(0)}, through PgBouncer without a direct URL ${r.pooledUncached.rps.toFixed(0)}; non-2xx ${failed}`);
      rows.push({ measure: `${label}: through PgBouncer (transaction mode) / direct`, result: ratio(r.pooled.rps / r.direct.rps), goal: '', met: undefined });
      rows.push({ measure: `${label}: direct with DATABASE_POOL_MODE=transaction / direct`, result: ratio(r.unnamed.rps / r.direct.rps), goal: '', met: undefined });
      rows.push({ measure: `${label}: through PgBouncer without DATABASE_DIRECT_URL / with it`, result: ratio(r.pooledUncached.rps / r.pooled.rps), goal: '', met: undefined });
      rows.push({
        measure: `${label}: p99 direct · through PgBouncer; non-2xx (all variants)`,
        result: `${r.direct.p99} ms · ${r.pooled.p99} ms; ${failed}`,
        goal: '0 non-2xx',
        met: failed === 0,
      });
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    await pooler.close();
  }
  const notes = [
    `Medians of ${ROUNDS} interleaved rounds of ${SECONDS} s. One server process per variant on one database (\`jit = off\` set on it), 10 connections each; PgBouncer 1.18 in transaction mode with default_pool_size 10 (the process's own pool), its server connections taken in turn, started by the benchmark (contract-tests/support/pgbouncer.ts).`,
    'Direct: today\'s settings, statements named per connection and the credential cache. DATABASE_POOL_MODE=transaction sends unnamed statements (parsed and planned at every execution). Without DATABASE_DIRECT_URL there is no LISTEN session, so no credential cache: every request checks its token in the database.',
  ];
  return { rows, notes };
}
