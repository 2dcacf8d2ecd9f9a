// Hourly housekeeping, one recurring job shared by every process: expired Idempotency-Key
// responses, closed authentication-failure windows, dead processes' credential-cache leases,
// expired Embedded Wallet signing requests and week-old finished jobs are deleted.
import { idempotencyHousekeeping } from '../idempotency/idempotency.service.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { deleteFinishedJobs } from '../jobs/jobs.repository.ts';
import { addMs } from '../shared/clock.ts';
import { forgetClosedFailureWindows, forgetDeadCacheLeases } from '../tokens/tokens.service.ts';
import { forgetExpiredSigningRequests } from '../wallet-auth/signed-retry.service.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export const housekeepingJob = defineJob<Record<string, never>>({
  kind: 'housekeeping',
  transactional: true,
  retryDelaysMs: [],
  recurEveryMs: 60 * 60 * 1000,
  async run(ctx) {
    await idempotencyHousekeeping(ctx);
    await forgetClosedFailureWindows(ctx);
    await forgetDeadCacheLeases(ctx);
    await forgetExpiredSigningRequests(ctx);
    await deleteFinishedJobs(ctx.db, addMs(ctx.clock.now(), -WEEK_MS));
  },
});
