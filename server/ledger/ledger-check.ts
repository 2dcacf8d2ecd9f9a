// The ledger's consistency check: recomputes every internal account's balance from its entries,
// and looks for movements that do not sum to zero and for money left in flight. Read-only; run by
// `npm run ledger:check` and by the test suite after the money tests.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { balanceDifferences, inSnapshot, ledgerSize, strandedHolds, unbalancedMovements, type BalanceDifference } from './ledger.repository.ts';

export interface LedgerReport {
  accounts: number;
  movements: number;
  balanceDifferences: BalanceDifference[];
  unbalancedMovements: { movementId: string; sum: number }[];
  strandedHolds: { transactionId: string; status: string; held: number }[];
  /** True when all three lists are empty. */
  consistent: boolean;
}

export async function checkLedger(db: Kysely<Database>): Promise<LedgerReport> {
  // One snapshot for every query, so a transfer committing meanwhile cannot show as a difference.
  return inSnapshot(db, async (tx) => {
    const size = await ledgerSize(tx);
    const differences = await balanceDifferences(tx);
    const unbalanced = await unbalancedMovements(tx);
    const stranded = await strandedHolds(tx);
    return {
      ...size,
      balanceDifferences: differences,
      unbalancedMovements: unbalanced,
      strandedHolds: stranded,
      consistent: differences.length === 0 && unbalanced.length === 0 && stranded.length === 0,
    };
  });
}
