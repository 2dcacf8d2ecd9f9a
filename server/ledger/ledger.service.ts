// The ledger: the only code that changes a balance. A movement changes the balance and writes its
// transaction row in the caller's database transaction, so both commit or neither does. (The
// money-core issue adds entries, debits, holds and refunds here.)
import type { PlatformContext } from '../context.ts';
import type { TransactionDetails } from '../db/schema.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { insertTransaction } from '../transactions/transactions.repository.ts';
import { badRequest } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { MAX_AMOUNT } from '../shared/money.ts';
import { creditBalance } from './ledger.repository.ts';

/** No balance may pass the contract's amount cap, so every sum stays exact in a JavaScript number. */
export const MAX_BALANCE = MAX_AMOUNT;

/** Credits an ACTIVE account and records the COMPLETED incoming transaction. */
export async function creditAccount(
  ctx: PlatformContext,
  account: Pick<InternalAccountRow, 'id' | 'customer_id' | 'currency'>,
  amount: number,
  describe: (transactionId: string, at: Date) => TransactionDetails,
): Promise<InternalAccountRow> {
  const at = ctx.clock.now();
  const credited = await creditBalance(ctx.db, ctx.platformId, account.id, amount, MAX_BALANCE, at);
  if (credited === undefined) throw badRequest('INVALID_AMOUNT', `The balance would exceed ${MAX_BALANCE}, the most an account can hold.`);
  const transactionId = newId('Transaction');
  await insertTransaction(ctx.db, {
    id: transactionId,
    platform_id: ctx.platformId,
    customer_id: credited.customer_id,
    type: 'INCOMING',
    status: 'COMPLETED',
    internal_account_id: credited.id,
    amount,
    currency: credited.currency,
    details: describe(transactionId, at),
    created_at: at,
    updated_at: at,
  });
  return credited;
}
