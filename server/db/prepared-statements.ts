// Named prepared statements: every parameterised query kysely sends is parsed and planned by the
// database once per connection, not once per execution. The server runs a few hundred distinct
// statements, so this saves the parse and plan of almost every query and a protocol message each.
//
// A statement's name stands for its text in this process (`s0_0`, `s0_1`, …), up to MAX_NAMED
// texts; beyond them a query runs unnamed, as before. A schema change under a prepared `select *`
// (a newer version's migration during a rolling upgrade) fails its next execution with "cached
// plan must not change result type": every connection of the process then prepares its statements
// afresh under new names (the generation in the name), and a query that ran outside a transaction
// is sent again at once. One inside a transaction cannot be: its transaction is rolled back, and
// the unit of work runs it again (`againIfStalePlan`), on statements prepared for the new shape.
import pg from 'pg';
import { isConnectionLoss, neverSent, rememberLossBeforeCommit, transactionStep } from './lost-connections.ts';

const MAX_NAMED = 1000;

/**
 * Ends the text of a query that runs unnamed, planned for each call's values: one whose best plan
 * depends on them (a list bounded by updated_at and ordered by created_at: a window of a few rows
 * is read from the updated_at index, one of most of the list by walking the order's), where the
 * plan PostgreSQL would settle on for the statement, for any values, can read the whole table.
 */
export const PLANNED_PER_CALL = '/* planned per call */';
const names = new Map<string, number>();

function indexOf(text: string): number | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED) return known;
  names.set(text, names.size);
  return names.size - 1;
}

/** Bumped when the schema changed under prepared statements: new names, prepared on next use. */
let generation = 0;

const planChanged = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test((err as Error).message);

/**
 * Runs `attempt` (a whole transaction) once more when it failed on a statement a schema change made
 * stale: it was rolled back, so nothing of it remains, and the statements it runs again are new.
 */
export async function againIfStalePlan<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!planChanged(err)) throw err;
    return attempt();
  }
}

/** A `pg.Client` (for `pg.Pool`'s `Client` option) that names the statements kysely sends. */
export class PreparingClient extends pg.Client {
  // kysely calls query(text, values) and awaits the promise; every other form passes through.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const index = args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0 && !text.endsWith(PLANNED_PER_CALL) ? indexOf(text) : undefined;
    const query = super.query.bind(this) as (...a: unknown[]) => never;
    if (typeof text === 'string') this.#track(text);
    if (index === undefined) {
      const sent: unknown = query(...args);
      return (sent instanceof Promise ? sent.catch((err: unknown) => this.#lost(err, text)) : sent) as never;
    }
    const sentIn = generation;
    const run = () => this.#named(`s${generation}_${index}`, text as string, values as unknown[]);
    return run()
      .catch((err: unknown) => {
        if (!planChanged(err)) throw err;
        // Once per change, however many connections meet it.
        if (generation === sentIn) generation += 1;
        if (this.getTransactionStatus() === 'I') return run();
        throw err;
      })
      .catch((err: unknown) => this.#lost(err, text)) as never;
  }

  /** Whether the connection's last transaction may have committed: its COMMIT was sent (true outside any: a statement of its own commits itself). */
  #commitSent = true;

  #track(text: string): void {
    const step = transactionStep(text);
    if (step !== undefined) this.#commitSent = step === 'commit';
  }

  /**
   * A lost connection is closed, so the pool drops it, and its error says whether its transaction
   * cannot have committed (lost-connections.ts): its COMMIT was not sent yet, or `pg` refused to
   * send it (a rollback refused after a COMMIT that was sent is no such proof).
   */
  #lost(err: unknown, text: unknown): never {
    if (isConnectionLoss(err)) {
      if (typeof text === 'string' && transactionStep(text) === 'commit' && neverSent(err)) this.#commitSent = false;
      if (!this.#commitSent) rememberLossBeforeCommit(err);
      this.end().catch(() => {});
    }
    throw err;
  }

  /**
   * A named query, sent as a `pg.Query` made from its text: a config object would be copied
   * property by property (utils.cloneQueryConfig) before `pg` read it.
   */
  #named(name: string, text: string, values: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const query = new pg.Query(text, values, (err, result) => (err ? reject(err) : resolve(result)));
      (query as pg.Query & { name: string }).name = name;
      super.query(query);
    });
  }
}
