// Sandbox funding: credits an internal account and records the COMPLETED incoming transaction in
// the same database transaction (the dispatcher's Idempotency-Key handling makes a replay answer
// the stored response without crediting twice).
import type { components } from '../../generated/openapi.js';
import { currency } from '../currencies.ts';
import type { Db } from '../db/database.ts';
import { badRequest } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { internalAccountNotFound, toInternalAccount } from '../internal-accounts/internal-accounts.handlers.ts';
import { creditInternalAccount, findInternalAccount, MAX_BALANCE } from '../internal-accounts/internal-accounts.repository.ts';
import { findPlatformCustomerId, insertTransaction } from './sandbox.repository.ts';

/**
 * What `transactions.details` holds: the IncomingTransaction without the fields that have their
 * own columns (id, type, status, customerId, createdAt, updatedAt), so the transactions area can
 * render `{...details, id, type, status, customerId, createdAt, updatedAt}`.
 */
export type IncomingTransactionDetails = Omit<components['schemas']['IncomingTransaction'], 'id' | 'type' | 'status' | 'customerId' | 'createdAt' | 'updatedAt'>;

type InternalAccount = components['schemas']['InternalAccount'];

export const sandboxFundHandlers: AreaHandlers<'fundSandboxInternalAccount'> = {
  async fundSandboxInternalAccount(req, ctx) {
    return { status: 200, body: await fund(ctx.db, ctx.principal.platformId, req.path.accountId, req.body.amount) };
  },
};

async function fund(db: Db, platformId: string, accountId: string, amount: number): Promise<InternalAccount> {
  const account = await findInternalAccount(db, platformId, accountId);
  if (account === undefined) throw internalAccountNotFound();
  if (account.status !== 'ACTIVE') throw badRequest('ACCOUNT_NOT_ACTIVE', `The account is ${account.status}; only ACTIVE accounts can be funded.`);

  const at = now();
  const credited = await creditInternalAccount(db, platformId, accountId, amount, at);
  if (credited === undefined) {
    throw badRequest('INVALID_AMOUNT', `The balance would exceed ${MAX_BALANCE}, the most a sandbox account can hold.`);
  }
  const platformCustomerId = credited.customer_id === null ? undefined : await findPlatformCustomerId(db, platformId, credited.customer_id);
  const transactionId = newId('Transaction');
  const details: IncomingTransactionDetails = {
    destination: { destinationType: 'ACCOUNT', accountId, currency: credited.currency },
    receivedAmount: { amount, currency: currency(credited.currency) },
    ...(platformCustomerId === undefined ? {} : { platformCustomerId }),
    description: 'Sandbox funding',
    reconciliationInstructions: { reference: `SANDBOX-${transactionId.slice(-12).toUpperCase()}` },
    settledAt: iso(at),
  };
  await insertTransaction(db, {
    id: transactionId,
    platform_id: platformId,
    customer_id: credited.customer_id,
    type: 'INCOMING',
    status: 'COMPLETED',
    internal_account_id: accountId,
    amount,
    currency: credited.currency,
    details,
    created_at: at,
    updated_at: at,
  });
  return toInternalAccount(credited);
}
