// Balances of internal accounts: the one column of `internal_accounts` the ledger owns. Every
// change is a single conditional UPDATE (no read-modify-write race); the CHECK of the migration
// keeps a balance from ever going negative, whatever the code does.
import type { Db } from '../db/database.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';

/** Adds `amount` to an ACTIVE account unless the balance would pass `maxBalance`; undefined when refused. */
export async function creditBalance(db: Db, platformId: string, accountId: string, amount: number, maxBalance: number, at: Date): Promise<InternalAccountRow | undefined> {
  return db
    .updateTable('internal_accounts')
    .set((eb) => ({ balance: eb('balance', '+', amount), updated_at: at }))
    .where('platform_id', '=', platformId)
    .where('id', '=', accountId)
    .where('status', '=', 'ACTIVE')
    .where('balance', '<=', maxBalance - amount)
    .returningAll()
    .executeTakeFirst();
}
