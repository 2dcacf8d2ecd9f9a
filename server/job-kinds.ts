// Every kind of background job the server runs, from the areas' `<area>.jobs.ts`. The runner
// refuses to start if two definitions share a kind.
import { housekeepingJob } from './housekeeping/housekeeping.jobs.ts';
import type { JobDefinition } from './jobs/job-definition.ts';
import { expireInvitationJob } from './invitations/invitations.jobs.ts';
import { expireQuoteJob } from './quotes/quotes.jobs.ts';
import { scheduledChangeJob } from './payments/payments.jobs.ts';
import { deliverWebhookJob } from './webhooks/webhooks.jobs.ts';

export const jobKinds: JobDefinition<object>[] = [deliverWebhookJob, housekeepingJob, scheduledChangeJob, expireQuoteJob, expireInvitationJob] as JobDefinition<object>[];
