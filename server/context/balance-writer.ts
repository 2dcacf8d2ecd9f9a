// How the ledger's postings reach the database, as the runtime names it (context.ts): the writer is
// chosen at boot, so the reliability tests' deliberate bug is injected there rather than branched on
// in the money path. Only db/ types, so that the request context can name it from below.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { InternalAccountTable, LedgerMovementTable } from '../db/schema.ts';

export interface NewMovement {
  movement: Insertable<LedgerMovementTable>;
  entries: readonly { account: string; amount: number }[];
}

/** An internal account's change in a posting: the sum of its entries. */
export interface BalanceChange {
  account: string;
  amount: number;
}

/**
 * How a posting reaches the database: its movements, their entries and the balance change of each
 * internal account among them (two or more locked first, in id order), each refused unless the
 * balance stays within 0 and `maxBalance`. Answers the accounts changed: one missing from the answer
 * was refused, and the caller must then fail the whole database transaction. Chosen at boot:
 * `conditionalBalanceWriter` (ledger.repository.ts), or the reliability tests' deliberately broken
 * one (lost-update.repository.ts).
 */
export interface BalanceWriter {
  post(db: Db, movements: readonly NewMovement[], changes: readonly BalanceChange[], maxBalance: number): Promise<Selectable<InternalAccountTable>[]>;
}
