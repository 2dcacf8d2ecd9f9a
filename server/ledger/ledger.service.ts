// The ledger: the only code that changes a balance. Beneath the payments layer, which records a
// payment's status changes and calls the ledger for the money step of each: funding, a receipt, a
// payment, a hold, its settlement or release, a refund. Each step posts movements (entries summing
// to zero, balances changed under row locks taken in id order) in the caller's database
// transaction, so they commit with the transaction row and its events, or none of them does.
//
// Where the money is, per currency of a platform:
//   an internal account     the customer's or the platform's balance (never negative)
//   SYSTEM:IN_FLIGHT        debited from an account for a payment not yet settled (a hold)
//   SYSTEM:SETTLEMENT       the banks and networks outside: money that left, or arrived, over a rail
//   SYSTEM:SANDBOX_FUNDING  where sandbox funding comes from
import type { Selectable } from 'kysely';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import type { MovementKind, TransactionTable } from '../db/schema.ts';
import type { InternalAccountRow } from '../internal-accounts/internal-accounts.repository.ts';
import { badRequest } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { MAX_AMOUNT } from '../shared/money.ts';
import { insertMovement, lockInternalAccounts, movementKinds } from './ledger.repository.ts';

type Status = components['schemas']['TransactionStatus'];
type FailureReason = components['schemas']['TransactionFailureReason'];
/** What the ledger reads of a payment's transaction: whose balance it moves, how much, which way. */
export type LedgerPayment = Pick<Selectable<TransactionTable>, 'id' | 'type' | 'status' | 'internal_account_id' | 'currency' | 'amount'>;

/** No balance may pass the contract's amount cap, so every sum stays exact in a JavaScript number. */
export const MAX_BALANCE = MAX_AMOUNT;

export type SystemAccountName = 'IN_FLIGHT' | 'SETTLEMENT' | 'SANDBOX_FUNDING';
export const systemAccount = (name: SystemAccountName, currency: string): string => `SYSTEM:${name}:${currency}`;
const isInternalAccount = (account: string) => account.startsWith('InternalAccount:');

interface Leg {
  account: string;
  amount: number;
}

/** An internal account's change in a posting: the sum of its entries, in their currency. */
interface Change extends Leg {
  currency: string;
}

/** One movement of a transaction: `amount` of `currency` from one account to another. */
interface Move {
  kind: MovementKind;
  currency: string;
  amount: number;
  from: string;
  to: string;
}

/**
 * Posts a transaction's movements (one, or a conversion's two) in one statement. Two internal
 * accounts or more are locked first, in id order; a debit a balance cannot cover is
 * `400 INSUFFICIENT_FUNDS`, a credit past the cap `400 INVALID_AMOUNT`; a second movement of the
 * same kind for the transaction fails on the database's unique key, so a refund can never be paid
 * twice.
 */
async function post(ctx: PlatformContext, transactionId: string, ...moves: Move[]): Promise<void> {
  const at = ctx.clock.now();
  const movements = moves.map((m) => {
    if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`ledger: ${m.kind} of ${m.amount} is not a positive amount in minor units`);
    const movement = { id: newId('Movement'), platform_id: ctx.platformId, transaction_id: transactionId, kind: m.kind, currency: m.currency, amount: m.amount, created_at: at };
    return { movement, entries: [{ account: m.from, amount: -m.amount }, { account: m.to, amount: m.amount }] };
  });
  // Each internal account's change, with the currency its entries are in.
  const changes = new Map<string, Change>();
  for (const { movement, entries } of movements) {
    for (const e of entries.filter((l) => isInternalAccount(l.account))) {
      const known = changes.get(e.account);
      if (known !== undefined && known.currency !== movement.currency) throw new Error(`ledger: ${e.account} moved in ${known.currency} and ${movement.currency}`);
      changes.set(e.account, { account: e.account, amount: (known?.amount ?? 0) + e.amount, currency: movement.currency });
    }
  }
  const internal = [...changes.values()].sort((a, b) => (a.account < b.account ? -1 : 1));
  if (internal.length === 0) {
    for (const m of movements) await insertMovement(ctx.db, m);
    return;
  }
  // With two internal accounts, both are locked first, in id order; one is locked by its UPDATE.
  if (internal.length > 1) await lockInternalAccounts(ctx.db, ctx.platformId, internal.map((l) => l.account));
  const changed = await ctx.balanceWriter.post(ctx.db, movements, internal, MAX_BALANCE);
  for (const leg of internal) check(leg, changed.find((row) => row.id === leg.account));

  function check(leg: Change, row: InternalAccountRow | undefined): void {
    if (row === undefined && leg.amount < 0) throw badRequest('INSUFFICIENT_FUNDS', `The balance of ${leg.account} is less than ${-leg.amount}.`, { accountId: leg.account });
    if (row === undefined) throw badRequest('INVALID_AMOUNT', `The balance would exceed ${MAX_BALANCE}, the most an account can hold.`);
    // A bug, not a request error: the whole database transaction rolls back.
    if (row.currency !== leg.currency) throw new Error(`ledger: ${leg.account} holds ${row.currency}, not ${leg.currency}`);
  }
}

/**
 * Locks the internal accounts among `accountIds`, in id order, for the rest of the caller's
 * database transaction: a balance checked after this still holds when the payment's debit runs.
 * For a decision that must see the true balance (an approval that FAILS a payment the balance
 * cannot cover), not the ledger's refusal of a debit that a racing payment got to first.
 */
export async function lockBalances(ctx: PlatformContext, accountIds: readonly (string | null)[]): Promise<void> {
  const internal = [...new Set(accountIds.filter((id): id is string => id !== null && isInternalAccount(id)))].sort();
  await lockInternalAccounts(ctx.db, ctx.platformId, internal);
}

/** What a payment completed at once delivers to another internal account (a conversion). */
export interface Credit {
  account: string;
  currency: string;
  amount: number;
}

/** The money step that goes with a transaction's first status. */
export type Opening =
  | { kind: 'FUND'; from: 'SANDBOX_FUNDING' }
  | { kind: 'RECEIVE' } // settlement → the internal account (an incoming transfer completed)
  | { kind: 'SEND'; credit?: Credit } // the internal account → settlement (a payment completed at once)
  | { kind: 'HOLD' } // the internal account → in flight (an outgoing transfer under way)
  | { kind: 'NONE' };

/** The money of a transaction's first status: funding, a receipt, a payment, a hold, or nothing. */
export async function postOpening(ctx: PlatformContext, row: LedgerPayment, opening: Opening): Promise<void> {
  const account = row.internal_account_id;
  const { currency, amount } = row;
  if (account === null) {
    if (opening.kind !== 'NONE') throw new Error(`ledger: a ${opening.kind} needs an internal account`);
    return;
  }
  switch (opening.kind) {
    case 'FUND':
      await post(ctx, row.id, { kind: 'FUND', currency, amount, from: systemAccount(opening.from, currency), to: account });
      break;
    case 'RECEIVE':
      await post(ctx, row.id, { kind: 'RECEIVE', currency, amount, from: systemAccount('SETTLEMENT', currency), to: account });
      break;
    case 'SEND':
      if (opening.credit === undefined) {
        await post(ctx, row.id, { kind: 'SEND', currency, amount, from: account, to: systemAccount('SETTLEMENT', currency) });
        break;
      }
      // Two accounts in two movements, posted together: both accounts are locked first, in id
      // order, so that two conversions crossing the same pair in opposite directions cannot deadlock.
      await post(
        ctx,
        row.id,
        { kind: 'SEND', currency, amount, from: account, to: systemAccount('SETTLEMENT', currency) },
        { kind: 'RECEIVE', currency: opening.credit.currency, amount: opening.credit.amount, from: systemAccount('SETTLEMENT', opening.credit.currency), to: opening.credit.account },
      );
      break;
    case 'HOLD':
      await post(ctx, row.id, { kind: 'HOLD', currency, amount, from: account, to: systemAccount('IN_FLIGHT', currency) });
      break;
    case 'NONE':
      break;
  }
}

/**
 * The money step of a payment's status change, from `row.status` (the status it had) to `to`: a held
 * payment that completes is settled, one that fails or is cancelled is released back to its account
 * (exactly once), an incoming transfer that completes is credited, a completed payment the receiving
 * bank returned is refunded.
 */
export async function postChange(ctx: PlatformContext, row: LedgerPayment, to: Status, failureReason: FailureReason | null): Promise<void> {
  const account = row.internal_account_id;
  if (account === null) return;
  const kinds = await movementKinds(ctx.db, row.id);
  const held = kinds.includes('HOLD') && !kinds.includes('RELEASE') && !kinds.includes('SETTLE');
  const { currency, amount } = row;
  // Held money settles when the payout completes, and also when its refund failed too: the money
  // is then gone outside until support resolves it.
  if (held && (to === 'COMPLETED' || (to === 'FAILED' && failureReason === 'REFUND_FAILED'))) {
    await post(ctx, row.id, { kind: 'SETTLE', currency, amount, from: systemAccount('IN_FLIGHT', currency), to: systemAccount('SETTLEMENT', currency) });
  } else if (held && (to === 'FAILED' || to === 'CANCELLED')) {
    await post(ctx, row.id, { kind: 'RELEASE', currency, amount, from: systemAccount('IN_FLIGHT', currency), to: account });
  } else if (row.type === 'INCOMING' && to === 'COMPLETED' && !kinds.includes('RECEIVE')) {
    await post(ctx, row.id, { kind: 'RECEIVE', currency, amount, from: systemAccount('SETTLEMENT', currency), to: account });
  } else if (row.type === 'OUTGOING' && row.status === 'COMPLETED' && to === 'FAILED' && failureReason !== 'REFUND_FAILED') {
    // A completed payment the receiving bank returned: the money comes back from outside.
    await post(ctx, row.id, { kind: 'REFUND', currency, amount, from: systemAccount('SETTLEMENT', currency), to: account });
  }
}
