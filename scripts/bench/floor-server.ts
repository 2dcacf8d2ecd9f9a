// The floor of `GET /customers?limit=20`: what any server answering it must do, and nothing else.
// node:http; the server's own list query (the repository's, its SQL compiled once), through the
// server's own database layer (pool, prepared statements, type parsers); the rows mapped by the
// server's own toCustomer; the same JSON envelope. No Express, no validation, no authentication.
// On PGlite (`pglite`), the platform and customers rows are first copied from the PostgreSQL database.
// `node scripts/bench/floor-server.ts postgres|pglite <database url>`: prints `PORT <n>` when it listens.
import { createServer } from 'node:http';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
// The bench's customers are individuals: no business tax id to open, which the server would do with its keys.
import { toCustomer, WITHOUT_TAX_ID } from '../../server/customers/customers.mapper.ts';
import { listCustomers } from '../../server/customers/customers.repository.ts';
import { openDatabase } from '../../server/db/database.ts';

const [mode, url] = process.argv.slice(2) as ['postgres' | 'pglite', string];
const PAGE = { limit: 20, after: undefined, filterDigest: '' };
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

const server = createServer((_req, res) => {
  listCustomers(db, platformId, {}, PAGE).then(
    ({ rows, total }) => {
      const body = { data: rows.slice(0, PAGE.limit).map((row) => toCustomer(row, WITHOUT_TAX_ID)), hasMore: rows.length > PAGE.limit, totalCount: total };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => process.exit(0));
