// The `pg` connection to PGlite (server/db/pglite-connection.ts), driven directly: answers parsed by
// pg's own parser, SQL errors as pg's DatabaseError with the connection still usable, an answer
// larger than PGlite's output buffer (several raw chunks), and the pool ending and remaking its
// client on the one shared connection.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteConfig } from '../../server/db/pglite-connection.ts';
import { PreparingClient } from '../../server/db/prepared-statements.ts';
import { target } from '../support/api.ts';

let pglite: PGlite;
let pool: pg.Pool;

beforeAll(async () => {
  if (target !== 'pglite') return;
  pglite = await PGlite.create('memory://');
  pool = new pg.Pool({ ...pgliteConfig(pglite, PreparingClient), idleTimeoutMillis: 50 });
}, 60_000);
afterAll(async () => {
  if (target !== 'pglite') return;
  await pool.end();
  await pglite.close();
});

describe.runIf(target === 'pglite')('the pg connection to PGlite', () => {
  it('answers simple and prepared queries with their rows and types', async () => {
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    for (const n of [1, 2, 3]) expect((await pool.query('select $1::int + 1 as next, $2::text as word', [n, 'a'])).rows).toEqual([{ next: n + 1, word: 'a' }]);
  });

  it('fails an SQL error with its SQLSTATE, and the connection serves on', async () => {
    await expect(pool.query('select * from no_such_table where id = $1', [1])).rejects.toMatchObject({ code: '42P01' });
    const client = await pool.connect();
    try {
      await client.query('begin');
      await expect(client.query('select 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
      await expect(client.query('select 1')).rejects.toMatchObject({ code: '25P02' });
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect((await pool.query('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
  });

  it('reads an answer of several megabytes, which PGlite hands over in chunks', async () => {
    const { rows } = await pool.query<{ i: number; filler: string }>('select i, repeat($1::text, 1000) as filler from generate_series(1, $2::int) as i', ['x', 5000]);
    expect(rows).toHaveLength(5000);
    expect(rows.at(-1)).toEqual({ i: 5000, filler: 'x'.repeat(1000) });
  });

  it('keeps working after the pool ends its idle client and makes another on the same connection', async () => {
    await pool.query('select $1::int as n', [1]);
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.totalCount).toBe(0);
    expect((await pool.query('select $1::int as n', [2])).rows).toEqual([{ n: 2 }]);
    await Promise.all([1, 2, 3].map(async (n) => expect((await pool.query('select $1::int as n', [n])).rows).toEqual([{ n }])));
  });
});
