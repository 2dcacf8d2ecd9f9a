// Named prepared statements: every parameterised query kysely sends is parsed and planned by the
// database once per connection, not once per execution. The server runs a few hundred distinct
// statements, so this saves the parse and plan of almost every query and a protocol message each.
//
// A statement's name stands for its text in this process (`s0`, `s1`, …), up to MAX_NAMED texts;
// beyond them a query runs unnamed, as before. A schema change under a prepared `select *` (a
// newer version's migration during a rolling upgrade) fails its next execution with "cached plan
// must not change result type": the connection then prepares its statements afresh under new
// names, and a query that ran outside a transaction is sent again at once. One inside a
// transaction cannot be: that transaction fails, and the caller's next one succeeds.
import pg from 'pg';

const MAX_NAMED = 1000;
const names = new Map<string, number>();

function indexOf(text: string): number | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED) return known;
  names.set(text, names.size);
  return names.size - 1;
}

const planChanged = (err: unknown): boolean => (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((err as Error).message);

/** A `pg.Client` (for `pg.Pool`'s `Client` option) that names the statements kysely sends. */
export class PreparingClient extends pg.Client {
  /** Bumped when the schema changed under this connection's statements. */
  private generation = 0;

  // kysely calls query(text, values) and awaits the promise; every other form passes through.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const index = args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0 ? indexOf(text) : undefined;
    const query = super.query.bind(this) as (...a: unknown[]) => never;
    if (index === undefined) return query(...args);
    const run = () => query({ name: `s${this.generation}_${index}`, text, values }) as Promise<unknown>;
    return run().catch((err: unknown) => {
      if (!planChanged(err)) throw err;
      this.generation += 1;
      if (this.getTransactionStatus() === 'I') return run();
      throw err;
    }) as never;
  }
}
