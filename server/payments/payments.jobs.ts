// The later status changes of sandbox payments (simulation/transfer-outcomes.ts, quote-outcomes.ts)
// as durable jobs: scheduled in the transaction that opens or moves the payment, so they survive a
// restart; run in a database transaction of their own that also marks the job done, so each applies
// exactly once whatever the number of server processes.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { scheduleJob } from '../jobs/schedule.ts';
import { addMs } from '../shared/clock.ts';
import type { StatusChange } from '../simulation/timing.ts';
import { moveTransaction } from './payment-status.ts';
import { findTransactionForUpdate, type TransactionRow } from './payments.repository.ts';

type Status = components['schemas']['TransactionStatus'];
type FailureReason = components['schemas']['TransactionFailureReason'];

export interface ScheduledChange {
  transactionId: string;
  /** The status the change applies from; a transaction found in another status is left alone. */
  from: Status;
  to: Status;
  /** The outcome's reason, set on the transaction by the change that makes it FAILED. */
  failureReason: FailureReason | null;
  /** The changes that follow this one. */
  then: readonly StatusChange[];
}

/** A scheduled change: applied if the transaction is still where it was left, then the next is scheduled. */
export async function applyScheduledChange(ctx: PlatformContext, change: ScheduledChange): Promise<void> {
  const row = await findTransactionForUpdate(ctx.db, ctx.platformId, change.transactionId);
  // Cancelled (or otherwise moved on) meanwhile: the outcome no longer applies.
  if (row === undefined || row.status !== change.from) return;
  const moved = await moveTransaction(ctx, row, change.to, change.to === 'FAILED' ? change.failureReason : null);
  if (moved !== undefined) await scheduleNextChange(ctx, moved, change.then, change.failureReason);
}

export const scheduledChangeJob = defineJob<ScheduledChange & { platformId: string }>({
  kind: 'transactions.scheduled-change',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { platformId, ...change }) => applyScheduledChange({ ...ctx, platformId }, change),
});

/** Schedules the first of `changes` to happen to the transaction from the status it is in now. */
export async function scheduleNextChange(ctx: PlatformContext, row: TransactionRow, changes: readonly StatusChange[], failureReason: FailureReason | null): Promise<void> {
  const [next, ...rest] = changes;
  if (next === undefined) return;
  await scheduleJob(ctx, scheduledChangeJob, addMs(ctx.clock.now(), next.afterMs), {
    platformId: ctx.platformId,
    transactionId: row.id,
    from: row.status,
    to: next.status,
    failureReason,
    then: rest,
  });
}
