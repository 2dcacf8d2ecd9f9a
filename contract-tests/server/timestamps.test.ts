// timestamptz values are read by the server's own parser (server/db/timestamps.ts), not pg's general
// one: it must give the same instant for everything PostgreSQL prints, in any session time zone
// (offsets in hours, in minutes, in seconds before standard time), and hand what it does not
// handle itself (BC, years before 1000, infinity) to the general parser.
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const own = ownDatabase('timestampsdb');
const general = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

const zones = ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Asia/Kathmandu', 'Europe/Amsterdam', 'Pacific/Kiritimati', 'America/Los_Angeles'];
const instants = [
  '2026-11-24 01:23:45.123456+00',
  '2026-11-24 01:23:45+00',
  '2026-03-29 01:00:00.5+00',
  '1999-12-31 23:59:59.999999+00',
  '1900-01-01 00:00:00.001+00', // Amsterdam's local mean time then: +00:19:32
  '1000-06-15 12:00:00+00',
  '0099-01-01 00:00:00+00',
  '0044-03-15 12:00:00+00 BC',
  'infinity',
  '-infinity',
];

describe.runIf(hasOwnDatabase)('timestamptz values read from the database', () => {
  it('are the instants PostgreSQL stores, in every session time zone', async () => {
    await own.db.connection().execute(async (conn) => {
      for (const zone of zones) {
        await sql`select set_config('TimeZone', ${zone}, false)`.execute(conn);
        for (const instant of instants) {
          const { rows } = await sql<{ value: Date | number; text: string; epoch: string | null }>`
            select ${instant}::timestamptz as value, ${instant}::timestamptz::text as text,
                   case when isfinite(${instant}::timestamptz) then (extract(epoch from ${instant}::timestamptz) * 1000)::text end as epoch`.execute(conn);
          const row = rows[0];
          if (row === undefined) throw new Error('no row');
          const printed = `${zone}: ${row.text}`;
          // The same value as the general parser gives, and the instant PostgreSQL means (to the millisecond).
          expect(row.value instanceof Date ? row.value.getTime() : row.value, printed).toEqual((general(row.text) as Date).valueOf());
          if (row.epoch !== null) expect(row.value instanceof Date ? row.value.getTime() : row.value, printed).toBe(Math.floor(Number(row.epoch)));
        }
      }
      await sql`select set_config('TimeZone', 'UTC', false)`.execute(conn);
    });
  });
});
