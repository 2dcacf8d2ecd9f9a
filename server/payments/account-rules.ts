// What every payment asks of the accounts it moves money from or to, named once for transfers,
// quotes and sandbox funding alike.
import { badRequest } from '../shared/errors.ts';

/**
 * An account a payment pays from or into must be ACTIVE: 400 ACCOUNT_NOT_ACTIVE otherwise, saying
 * which account (`named`, as the caller knows it) and what its status stops (`stops`).
 */
export function requireActiveAccount(account: { id: string; status: string }, named: string, stops: string): void {
  if (account.status !== 'ACTIVE') throw badRequest('ACCOUNT_NOT_ACTIVE', `${named} is ${account.status}; ${stops}.`, { accountId: account.id });
}
