// `npm run bench`: measured throughput ratios of the sandbox server, each against a baseline run
// the same way on the same machine (numbers alone mean little on a shared 2-core box):
//   1. GET /config (Basic auth + request validation + two database reads) vs a bare node:http
//      handler, in production mode (no response validation) and in test mode (with it), and the
//      same on PostgreSQL when it is reachable;
//   2. POST sandbox funding (a write transaction + Idempotency-Key row) on PGlite and PostgreSQL;
//   3. POST /transfer-out (a COMPLETED transfer: debit, transaction, movement, entries, webhook
//      event, delivery job) on PostgreSQL, against the same writes in raw SQL with `pg`
//      (scripts/bench/raw-transfers.ts) on the same database;
//   4. a quote created and executed (two requests) on PostgreSQL, against the same writes in raw
//      SQL (scripts/bench/raw-quotes.ts).
// Servers run as child processes; autocannon drives them from this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../contract-tests/support/free-port.ts';
import { rawQuotes } from './bench/raw-quotes.ts';
import { accountConsistent, rawTransferOuts } from './bench/raw-transfers.ts';

const root = resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const clientId = randomBytes(16).toString('hex');
const clientSecret = `sk_sandbox_${randomBytes(32).toString('base64url')}`;
const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;


async function start(args: string[], env: NodeJS.ProcessEnv, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore' });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(readyUrl)).status < 500) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`did not start: ${args.join(' ')}`);
}

async function server(env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const child = await start([join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'server/main.ts'], {
    ...env, PORT: String(port), HOST: '127.0.0.1', PAYMENTS_CLIENT_ID: clientId, PAYMENTS_CLIENT_SECRET: clientSecret, LOG_LEVEL: 'silent',
    // Production mode needs a master key; a fresh one per run.
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'),
  }, `http://127.0.0.1:${port}/openapi.json`);
  return { base: `http://127.0.0.1:${port}/2025-10-13`, child };
}

async function load(opts: autocannon.Options): Promise<{ rps: number; p99: number; errors: number; requests: number }> {
  const result = await autocannon({ duration: DURATION_S, connections: 10, pipelining: 1, ...opts });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.non2xx + result.errors, requests: result['2xx'] };
}

const line = (label: string, r: { rps: number; p99: number; errors: number }) =>
  console.log(`  ${label.padEnd(46)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.errors}`);

console.log(`Node ${process.version}, ${DURATION_S} s per run, 10 connections\n`);

// Baseline: the cheapest possible HTTP answer on this machine.
const barePort = await freePort();
const bare = await start(['-e', `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"ok":true}')}).listen(${barePort},'127.0.0.1')`], {}, `http://127.0.0.1:${barePort}/`);
const baseline = await load({ url: `http://127.0.0.1:${barePort}/` });
bare.kill();
console.log('1. GET /config against bare node:http');
line('bare node:http', baseline);

for (const [label, validate] of [['server, production (no response validation)', '0'], ['server, test mode (response validation)', '1']] as const) {
  const s = await server({ PGLITE_DATA_DIR: 'memory://', DATABASE_URL: '', NODE_ENV: validate === '0' ? 'production' : 'test', VALIDATE_RESPONSES: validate });
  await load({ url: `${s.base}/config`, headers: { authorization }, duration: 1 }); // warm-up
  const r = await load({ url: `${s.base}/config`, headers: { authorization } });
  s.child.kill();
  line(label, r);
  console.log(`  ${''.padEnd(46)} = ${((r.rps / baseline.rps) * 100).toFixed(1)} % of bare node:http`);
}

async function fundingRun(label: string, env: NodeJS.ProcessEnv) {
  const s = await server({ ...env, NODE_ENV: 'production', VALIDATE_RESPONSES: '0' });
  const accounts = await (await fetch(`${s.base}/platform/internal-accounts?currency=USD`, { headers: { authorization } })).json() as { data: { id: string }[] };
  const account = accounts.data[0]?.id;
  const r = await load({
    url: `${s.base}/sandbox/internal-accounts/${account}/fund`,
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1 }),
    // A fresh Idempotency-Key per request: every request is a real write.
    setupClient: (c) => c.setHeaders({ authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }],
  });
  const balance = await (await fetch(`${s.base}/internal-accounts/${account}`, { headers: { authorization } })).json() as { balance: { amount: number } };
  s.child.kill();
  line(label, r);
  return { ...r, credited: balance.balance.amount };
}

async function withPostgres<T>(use: (url: string) => Promise<T>): Promise<T | undefined> {
  const adminUrl = process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    console.log(`  PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`);
    await admin.end().catch(() => undefined);
    return undefined;
  }
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await withPostgres(async (url) => {
  const s = await server({ DATABASE_URL: url, NODE_ENV: 'production', VALIDATE_RESPONSES: '0' });
  await load({ url: `${s.base}/config`, headers: { authorization }, duration: 1 });
  const r = await load({ url: `${s.base}/config`, headers: { authorization } });
  s.child.kill();
  line('server on PostgreSQL, production', r);
  console.log(`  ${''.padEnd(46)} = ${((r.rps / baseline.rps) * 100).toFixed(1)} % of bare node:http`);
});

console.log('\n2. POST sandbox funding (one write transaction per request)');
const onPglite = await fundingRun('PGlite (embedded, one connection)', { PGLITE_DATA_DIR: 'memory://', DATABASE_URL: '' });
const onPostgres = await withPostgres((url) => fundingRun('PostgreSQL (pool of 10)', { DATABASE_URL: url }));
if (onPostgres !== undefined) console.log(`  PostgreSQL / PGlite write throughput: ${(onPostgres.rps / onPglite.rps).toFixed(2)}x`);
for (const [label, run] of [['PGlite', onPglite], ['PostgreSQL', onPostgres]] as const) {
  // Requests still in flight when the run stops complete without being counted: up to one per connection.
  if (run !== undefined) {
    const ok = run.credited >= run.requests && run.credited <= run.requests + 10;
    console.log(`  ${label}: ${run.credited} minor units credited, ${run.requests} 2xx counted (+ up to 10 in flight at the cut-off): ${ok ? 'consistent' : 'INCONSISTENT'}`);
  }
}

console.log('\n3. POST /transfer-out on PostgreSQL (a COMPLETED transfer: one ledger write transaction) against raw SQL');
await withPostgres(async (url) => {
  const FUNDING = 100_000_000_000;
  const s = await server({ DATABASE_URL: url, NODE_ENV: 'production', VALIDATE_RESPONSES: '0' });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${s.base}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const customer = await post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' });
  const accounts = (await (await fetch(`${s.base}/customers/internal-accounts?customerId=${customer.id}&currency=USD`, { headers: { authorization } })).json()) as { data: { id: string }[] };
  const account = accounts.data[0]?.id ?? '';
  await post(`/sandbox/internal-accounts/${account}/fund`, { amount: FUNDING });
  const accountNumber = `${String(Date.now()).slice(-9)}000`; // suffix 000: COMPLETED at once
  const external = await post('/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'JPMorgan Chase Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
  });
  const transfer = {
    url: `${s.base}/transfer-out`,
    method: 'POST' as const,
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ source: { accountId: account }, destination: { accountId: external.id }, amount: 1 }),
  };
  await load({ ...transfer, duration: 1 }); // warm-up
  const http = await load(transfer);
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill();
  await exited; // nothing else on the database during the raw run
  line('server, production (HTTP, 10 connections)', http);

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const platformId = (await db.query<{ platform_id: string }>('select platform_id from internal_accounts where id = $1', [account])).rows[0]?.platform_id ?? '';
  await db.end();
  const raw = await rawTransferOuts(url, { platformId, customerId: customer.id, internalAccountId: account, externalAccountId: external.id }, { connections: 10, durationS: DURATION_S, amount: 1 });
  line('raw SQL with pg (same writes, 10 connections)', { rps: raw.rate, p99: raw.p99, errors: raw.refused });
  console.log(`  HTTP / raw SQL transfer throughput: ${(http.rps / raw.rate).toFixed(2)}x (${((http.rps / raw.rate) * 100).toFixed(1)} % of the database's own rate)`);
  const after = await accountConsistent(url, account);
  const ok = after.balance === after.entries && FUNDING - after.balance === after.sends;
  console.log(`  ledger: balance ${after.balance} = sum of entries ${after.entries}, ${after.sends} transfers of 1 debited: ${ok ? 'consistent' : 'INCONSISTENT'}`);
});

console.log('\n4. A quote created and executed on PostgreSQL (USD to EUR between internal accounts: two requests) against raw SQL');
await withPostgres(async (url) => {
  const FUNDING = 100_000_000_000;
  const s = await server({ DATABASE_URL: url, NODE_ENV: 'production', VALIDATE_RESPONSES: '0' });
  const headers = { authorization, 'content-type': 'application/json' };
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${s.base}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const customer = await post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD', 'EUR'] });
  const accounts = (await (await fetch(`${s.base}/customers/internal-accounts?customerId=${customer.id}`, { headers: { authorization } })).json()) as { data: { id: string; balance: { currency: { code: string } } }[] };
  const usd = accounts.data.find((a) => a.balance.currency.code === 'USD')?.id ?? '';
  const eur = accounts.data.find((a) => a.balance.currency.code === 'EUR')?.id ?? '';
  await post(`/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDING });
  const quoteBody = JSON.stringify({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 });
  const first = await post('/quotes', JSON.parse(quoteBody));
  await post(`/quotes/${encodeURIComponent(first.id)}/execute`);
  const basePath = new URL(s.base).pathname;
  // Autocannon's context is an untyped object per connection: the create stores the quote's id there.
  const ids = new WeakMap<object, string>();
  const requests: autocannon.Request[] = [
    {
      method: 'POST',
      path: `${basePath}/quotes`,
      headers,
      body: quoteBody,
      onResponse: (_status, body, context) => {
        ids.set(context, (JSON.parse(body) as { id: string }).id);
      },
    },
    {
      method: 'POST',
      headers: { authorization },
      setupRequest: (request, context) => ({ ...request, path: `${basePath}/quotes/${encodeURIComponent(ids.get(context) ?? '')}/execute` }),
    },
  ];
  const flow = { url: new URL(s.base).origin, requests };
  await load({ ...flow, duration: 1 }); // warm-up
  const http = await load(flow);
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill();
  await exited;
  const quotesPerSecond = { rps: http.rps / 2, p99: http.p99, errors: http.errors };
  line('server, production (quotes created+executed/s)', quotesPerSecond);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const platformId = (await db.query<{ platform_id: string }>('select platform_id from internal_accounts where id = $1', [usd])).rows[0]?.platform_id ?? '';
  await db.end();
  const raw = await rawQuotes(url, { platformId, customerId: customer.id, usd, eur }, { connections: 10, durationS: DURATION_S });
  line('raw SQL with pg (same writes, 10 connections)', { rps: raw.rate, p99: raw.p99, errors: raw.refused });
  console.log(`  HTTP / raw SQL quote throughput: ${(quotesPerSecond.rps / raw.rate).toFixed(2)}x (${((quotesPerSecond.rps / raw.rate) * 100).toFixed(1)} % of the database's own rate)`);
  const usdAfter = await accountConsistent(url, usd);
  const eurAfter = await accountConsistent(url, eur);
  const ok = usdAfter.balance === usdAfter.entries && eurAfter.balance === eurAfter.entries;
  console.log(`  ledger: USD ${usdAfter.balance} = entries ${usdAfter.entries}, EUR ${eurAfter.balance} = entries ${eurAfter.entries}: ${ok ? 'consistent' : 'INCONSISTENT'}`);
});
