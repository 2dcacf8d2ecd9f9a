// The bug the conditional UPDATE of `conditionalBalanceWriter` exists to prevent, kept for the
// reliability tests to catch (PAYMENTS_TEST_FAULT=lost-update, NODE_ENV=test only; boot.ts gives it
// to the ledger instead of the real writer): each balance is read without a lock, then overwritten
// with the value computed from that read. Two movements of one account that read before either
// commits both write, and one of them is lost; the bounds are checked on the read, so no balance
// goes negative and no database constraint notices.
import type { Db } from '../db/database.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import type { BalanceChange, BalanceWriter, NewMovement } from '../context/balance-writer.ts';
import { insertMovement } from './ledger.repository.ts';

async function overwriteBalanceFromRead(db: Db, platformId: string, change: BalanceChange, maxBalance: number, at: NewMovement['movement']['created_at']): Promise<InternalAccountRow | undefined> {
  const read = await db.selectFrom('internal_accounts').select('balance').where('platform_id', '=', platformId).where('id', '=', change.account).executeTakeFirst();
  if (read === undefined || read.balance + change.amount < 0 || read.balance + change.amount > maxBalance) return undefined;
  return db
    .updateTable('internal_accounts')
    .set({ balance: read.balance + change.amount, updated_at: at })
    .where('platform_id', '=', platformId)
    .where('id', '=', change.account)
    .returningAll()
    .executeTakeFirst();
}

export const lostUpdateBalanceWriter: BalanceWriter = {
  async post(db: Db, movements: readonly NewMovement[], changes: readonly BalanceChange[], maxBalance: number): Promise<InternalAccountRow[]> {
    const first = movements[0]?.movement;
    if (first === undefined) throw new Error('ledger: no movement to post');
    for (const m of movements) await insertMovement(db, m);
    const changed: InternalAccountRow[] = [];
    for (const change of changes) {
      const row = await overwriteBalanceFromRead(db, first.platform_id, change, maxBalance, first.created_at);
      if (row !== undefined) changed.push(row);
    }
    return changed;
  },
};
