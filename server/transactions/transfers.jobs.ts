// The later status changes of sandbox transfers (simulation/transfer-outcomes.ts) as durable jobs:
// scheduled in the transaction that creates the transfer, so they survive a restart; run in a
// database transaction of their own that also marks the job done, so each applies exactly once
// whatever the number of server processes.
import type { components } from '../../generated/openapi.js';
import { defineJob } from '../jobs/job-definition.ts';
import type { StatusChange } from '../simulation/timing.ts';
import { applyScheduledChange } from './transfers.service.ts';

type Status = components['schemas']['TransactionStatus'];

export interface ScheduledChange {
  transactionId: string;
  /** The status the change applies from; a transaction found in another status is left alone. */
  from: Status;
  to: Status;
  /** The outcome's reason, set on the transaction by the change that makes it FAILED. */
  failureReason: components['schemas']['TransactionFailureReason'] | null;
  /** The changes that follow this one. */
  then: readonly StatusChange[];
}

export const transactionOutcomeJob = defineJob<ScheduledChange & { platformId: string }>({
  kind: 'transactions.scheduled-change',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { platformId, ...change }) => applyScheduledChange({ ...ctx, platformId }, change),
});
