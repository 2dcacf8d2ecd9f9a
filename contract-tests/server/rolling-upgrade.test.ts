// A rolling upgrade: a newer version's migration adds a column while an older process serves on
// the same PostgreSQL database. That process's prepared `select *` and `returning *` statements
// are stale from then on; it must keep answering every request, writes in transactions (with and
// without an Idempotency-Key) included, as if nothing happened (server/db/prepared-statements.ts).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';

describe.runIf(target === 'postgres')('a column added under a running server', () => {
  const own = ownServer({ onTargetDatabase: true });

  it('changes no answer: reads, writes and keyed writes on every pooled connection', async () => {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] } });
    const customerId = customer?.id ?? '';
    let n = 0;
    const reads = () => Array.from({ length: 10 }, () => own.via.GET('/customers/{customerId}', { params: { path: { customerId } } }));
    // Transactions: on a pooled connection, the old plan is met by whichever statement comes first.
    const writes = () => [
      ...Array.from({ length: 10 }, () => own.via.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body: { customerType: 'INDIVIDUAL', email: `ada${(n += 1)}@example.com` } })),
      ...Array.from({ length: 10 }, () =>
        own.via.POST('/customers', { params: { header: { 'Idempotency-Key': `upgrade-${(n += 1)}` } }, body: { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', currencies: ['USD'] } }),
      ),
    ];
    // Every statement involved prepared on as many of the pool's connections as the load reaches.
    for (const { response } of await Promise.all([...reads(), ...writes()])) expect(response.status).toBeLessThan(300);

    const migration = new pg.Client({ connectionString: own.databaseUrl });
    await migration.connect();
    try {
      await migration.query('alter table customers add column added_by_a_newer_version text');
    } finally {
      await migration.end();
    }

    // Writes first, so that transactions meet the old plans (reads outside one are simply sent again).
    const statuses = [...(await Promise.all(writes())), ...(await Promise.all(reads()))].map(({ response }) => response.status);
    expect(statuses.filter((s) => s >= 300)).toEqual([]);
    expect(statuses).toHaveLength(30);
  });
});
