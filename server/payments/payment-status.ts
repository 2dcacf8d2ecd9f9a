// A payment's status changes, each with everything that goes with it, in the caller's database
// transaction: the transaction row (a status moves only from the one it was read in, along the
// spec's state machine), its webhook event, and last the ledger's money step, so that a refused
// debit rolls all of it back and an account's row lock is held only until the commit.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import type { TransactionDetails } from '../db/schema.ts';
import { postChange, postOpening, type Opening } from '../ledger/ledger.service.ts';
import { newId } from '../shared/ids.ts';
import { assertInitial, assertPath, assertTransition } from '../shared/state-machine.ts';
import { emitTransactionEvent } from './payment-events.ts';
import { insertTransaction, moveTransactionStatus, type TransactionRow } from './payments.repository.ts';

type Status = components['schemas']['TransactionStatus'];
type FailureReason = components['schemas']['TransactionFailureReason'];

export interface NewTransaction {
  type: 'INCOMING' | 'OUTGOING';
  customerId: string | null;
  /** The internal account whose balance the transaction moves; null when none does (real-time funding). */
  internalAccountId: string | null;
  sourceAccountId: string | null;
  /** Null when the destination is not an account (an UMA address). */
  destinationAccountId: string | null;
  amount: number;
  currency: string;
  reference: string;
  details: TransactionDetails;
}

/**
 * Records a transaction whose life so far is `path` (the sandbox may refuse a transfer at once:
 * `PENDING → FAILED`), with its webhook event, what `alsoRecord` adds (its scheduled outcome) and,
 * last, the money step of its first status.
 */
export async function openTransaction(
  ctx: PlatformContext,
  draft: NewTransaction,
  path: readonly Status[],
  opening: Opening,
  failureReason: FailureReason | null = null,
  alsoRecord: (row: TransactionRow) => Promise<void> = async () => {},
): Promise<TransactionRow> {
  const [first] = path;
  const last = path.at(-1);
  if (first === undefined || last === undefined) throw new Error('payments: a transaction needs a status');
  assertInitial('TransactionStatus', first);
  assertPath('TransactionStatus', path);
  const at = ctx.clock.now();
  const row = await insertTransaction(ctx.db, {
    id: newId('Transaction'),
    platform_id: ctx.platformId,
    customer_id: draft.customerId,
    type: draft.type,
    status: last,
    internal_account_id: draft.internalAccountId,
    source_account_id: draft.sourceAccountId,
    destination_account_id: draft.destinationAccountId,
    reference: draft.reference,
    failure_reason: failureReason,
    settled_at: last === 'COMPLETED' ? at : null,
    cancellation_reason: null,
    amount: draft.amount,
    currency: draft.currency,
    details: draft.details,
    created_at: at,
    updated_at: at,
  });
  await emitTransactionEvent(ctx, row);
  await alsoRecord(row);
  await postOpening(ctx, row, opening);
  return row;
}

/**
 * Starts a transaction that waited for the platform's approval (PENDING_APPROVAL, nothing moved) as
 * a new one would start: along `path` to its first visible status, with the opening's money.
 */
export async function startApprovedTransaction(
  ctx: PlatformContext,
  row: TransactionRow,
  path: readonly Status[],
  opening: Opening,
  failureReason: FailureReason | null = null,
): Promise<TransactionRow> {
  const last = path.at(-1);
  if (row.status !== 'PENDING_APPROVAL' || last === undefined) throw new Error(`payments: transaction ${row.id} is not waiting for approval`);
  assertPath('TransactionStatus', [row.status, ...path]);
  const at = ctx.clock.now();
  const moved = await moveTransactionStatus(ctx.db, row.id, row.status, { status: last, failure_reason: failureReason, settled_at: last === 'COMPLETED' ? at : null, updated_at: at });
  if (moved === undefined) throw new Error(`payments: transaction ${row.id} moved under its lock`);
  await emitTransactionEvent(ctx, moved);
  await postOpening(ctx, moved, opening);
  return moved;
}

/**
 * Moves a transaction on from the status it was read in, with the money step that goes with the
 * change (ledger.service.ts: `postChange`). Undefined when the transaction had already moved on (a
 * cancel won the race against a scheduled outcome): nothing happens then.
 */
export async function moveTransaction(
  ctx: PlatformContext,
  row: TransactionRow,
  to: Status,
  failureReason: FailureReason | null = null,
  cancellationReason: string | null = null,
): Promise<TransactionRow | undefined> {
  assertTransition('TransactionStatus', row.status, to);
  const at = ctx.clock.now();
  const moved = await moveTransactionStatus(ctx.db, row.id, row.status, {
    status: to,
    failure_reason: failureReason,
    settled_at: to === 'COMPLETED' ? at : row.settled_at,
    cancellation_reason: cancellationReason,
    updated_at: at,
  });
  if (moved === undefined) return undefined;
  await emitTransactionEvent(ctx, moved);
  await postChange(ctx, row, to, failureReason);
  return moved;
}
