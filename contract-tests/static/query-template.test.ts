// server/db/query-template.ts sends every list query (paginate.ts): built once per shape, then
// filled with each call's values. Whatever the calls and their order, what it sends must be what
// kysely compiles from the same builder given the values themselves; and a template that would
// send one call's value to the next, or drop a parameter, must be refused when it is first built.
import fc from 'fast-check';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { queryTemplate } from '../../server/db/query-template.ts';
import type { Database } from '../../server/db/schema.ts';

// Compiles without a database.
const db: Db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

interface Params {
  platformId: string;
  region?: string;
  currency?: string;
  platformCustomerId?: string;
  accountId?: string;
  createdAfter?: Date;
  isDeleted?: boolean;
  limit: number;
}
type Order = 'asc' | 'desc';

/** A list with the constructs the repositories use: a subquery and an `or` that repeat a parameter, `any`, a template, dates, a limit. */
function build(k: Db, p: Params, order: Order) {
  let q = k.selectFrom('transactions').selectAll('transactions').where('transactions.platform_id', '=', p.platformId);
  if (p.region !== undefined) q = q.where('transactions.reference', '=', sql<string>`upper(${p.region})`);
  if (p.currency !== undefined) q = q.where((eb) => eb(eb.val(p.currency), '=', eb.fn.any(sql<string[]>`array[transactions.currency]`)));
  if (p.platformCustomerId !== undefined) {
    const id = p.platformCustomerId;
    q = q.where('transactions.customer_id', 'in', (eb) =>
      eb.selectFrom('customers').select('customers.id').where('customers.platform_id', '=', p.platformId).where('customers.platform_customer_id', '=', id),
    );
  }
  if (p.accountId !== undefined) {
    const id = p.accountId;
    q = q.where((eb) => eb.or([eb('transactions.source_account_id', '=', id), eb('transactions.destination_account_id', '=', id)]));
  }
  if (p.createdAfter !== undefined) q = q.where('transactions.created_at', '>=', p.createdAfter);
  if (p.isDeleted !== undefined) q = q.where(sql<boolean>`transactions.customer_id is null`, '=', p.isDeleted);
  return q.orderBy('transactions.created_at', order).limit(p.limit);
}

const text = fc.string({ maxLength: 6 });
const params: fc.Arbitrary<Params> = fc.record(
  {
    platformId: text,
    region: text,
    currency: text,
    platformCustomerId: text,
    accountId: text,
    createdAfter: fc.date({ noInvalidDate: true }),
    isDeleted: fc.boolean(),
    limit: fc.integer({ min: 1, max: 101 }),
  },
  { requiredKeys: ['platformId', 'limit'] },
);

describe('queryTemplate', () => {
  it('sends what kysely compiles from the values themselves, for any sequence of calls and shapes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(params, fc.constantFrom<Order>('asc', 'desc')), { minLength: 1, maxLength: 30 }), (calls) => {
        const template = queryTemplate<Params, unknown, Order>(build);
        for (const [p, order] of calls) {
          const sent = template(db, p, order);
          const direct = build(db, p, order).compile();
          expect(sent.sql).toBe(direct.sql);
          expect(sent.parameters).toEqual(direct.parameters);
        }
      }),
      { seed: 20251013, numRuns: 300 },
    );
  });

  it('builds each shape once: the parameters present and the variant', () => {
    let builds = 0;
    const template = queryTemplate<Params, unknown, Order>((k, p, order) => {
      builds += 1;
      return build(k, p, order);
    });
    template(db, { platformId: 'a', limit: 1 }, 'asc');
    template(db, { platformId: 'b', limit: 2, region: undefined }, 'asc');
    expect(builds).toBe(1);
    template(db, { platformId: 'c', limit: 3 }, 'desc');
    template(db, { platformId: 'd', limit: 4, region: 'EU' }, 'desc');
    template(db, { platformId: 'e', limit: 5, region: 'US' }, 'desc');
    expect(builds).toBe(3);
  });

  it('refuses a template that holds a value of its own: it would be sent to every later call', () => {
    const captured = 'platform-of-the-first-call';
    const template = queryTemplate<{ id: string }, unknown>((k, p) => k.selectFrom('customers').selectAll().where('platform_id', '=', captured).where('id', '=', p.id));
    expect(() => template(db, { id: 'x' })).toThrow(/parameter \$1 .* is a value of the template/);
    const stamped = queryTemplate<{ id: string }, unknown>((k, p) => k.selectFrom('customers').selectAll().where('id', '=', p.id).where('created_at', '<', new Date()));
    expect(() => stamped(db, { id: 'x' })).toThrow(/parameter \$2/);
  });

  it('refuses a template that does not send a parameter it was given', () => {
    // A placeholder turned into something else (a Date of it) is not the caller's value any more.
    const template = queryTemplate<{ id: string; after?: string }, unknown>((k, p) => {
      const q = k.selectFrom('customers').selectAll().where('id', '=', p.id);
      return p.after === undefined ? q : q.where('created_at', '>', sql<Date>`now()`);
    });
    expect(template(db, { id: 'x' }).parameters).toEqual(['x']);
    expect(() => template(db, { id: 'x', after: '2026-01-01T00:00:00Z' })).toThrow(/does not send after/);
  });
});
