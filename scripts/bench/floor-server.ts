// The floor of each GET route the benchmark measures: what any server answering it must do, and
// nothing else. node:http; the route's own repository query (its SQL compiled once), through the
// server's own database layer (pool, prepared statements, type parsers); the rows mapped by the
// server's own mappers; the same JSON. No Express, no validation, no authentication.
//   /customers/{id}       findCustomer, toCustomer
//   /customers?limit=N    listCustomers (first page, its total), toCustomer, the list envelope
//   /config               findPlatform, toConfig
// On PGlite (`pglite`), the platform and customers rows are first copied from the PostgreSQL database.
// With `express`, the same work is routed by an Express 5 app (express.json() and the three routes):
// what the framework alone costs, with nothing of the server's own.
// `node scripts/bench/floor-server.ts postgres|pglite <database url> [express]`: prints `PORT <n>` when it listens.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
// The bench's customers are individuals: no business tax id to open, which the server would do with its keys.
import { toCustomer, WITHOUT_TAX_ID } from '../../server/customers/customers.mapper.ts';
import { findCustomer, listCustomers } from '../../server/customers/customers.repository.ts';
import { openDatabase } from '../../server/db/database.ts';
import { toConfig } from '../../server/platform/platform.mapper.ts';
import { findPlatform } from '../../server/platform/platform.repository.ts';

const [mode, url, framework] = process.argv.slice(2) as ['postgres' | 'pglite', string, string | undefined];
const withExpress = framework === 'express';
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent };

const source = new pg.Client({ connectionString: url });
await source.connect();
const platformId = String((await source.query('select platform_id from customers limit 1')).rows[0]?.platform_id);
const { db } = await openDatabase({ databaseUrl: mode === 'postgres' ? url : undefined, pgliteDataDir: 'memory://' }, silent as never);
if (mode === 'pglite') {
  for (const table of ['platforms', 'customers']) {
    const json = new Set((await source.query(`select column_name from information_schema.columns where table_name = $1 and data_type in ('json', 'jsonb')`, [table])).rows.map((r) => String(r.column_name)));
    for (const row of (await source.query(`select * from ${table}`)).rows as Record<string, unknown>[]) {
      const columns = Object.keys(row);
      const values = columns.map((c) => (json.has(c) && row[c] !== null ? JSON.stringify(row[c]) : row[c]));
      await db.executeQuery(CompiledQuery.raw(`insert into ${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, values));
    }
  }
}
await source.end();

/** The route's answer, or undefined for a path it does not serve. */
async function answer(url: string): Promise<unknown> {
  const { pathname, searchParams } = new URL(url, 'http://floor');
  if (pathname === '/config') {
    const row = await findPlatform(db, platformId);
    return row === undefined ? undefined : toConfig(row);
  }
  if (pathname === '/customers') {
    const page = { limit: Number(searchParams.get('limit') ?? 20), after: undefined, filterDigest: '' };
    const { rows, total } = await listCustomers(db, platformId, {}, page);
    return { data: rows.slice(0, page.limit).map((row) => toCustomer(row, WITHOUT_TAX_ID)), hasMore: rows.length > page.limit, totalCount: total };
  }
  const id = /^\/customers\/([^/]+)$/.exec(pathname)?.[1];
  const row = id === undefined ? undefined : await findCustomer(db, platformId, decodeURIComponent(id));
  return row === undefined ? undefined : toCustomer(row, WITHOUT_TAX_ID);
}

const respond = (req: IncomingMessage, res: ServerResponse) => {
  answer(req.url ?? '/').then(
    (body) => {
      res.statusCode = body === undefined ? 404 : 200;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body ?? {}));
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
};
function expressApp() {
  const app = express();
  app.use(express.json());
  app.get('/customers', respond);
  app.get('/customers/:id', respond);
  app.get('/config', respond);
  return app;
}

const server = createServer(withExpress ? expressApp() : respond);
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => process.exit(0));
