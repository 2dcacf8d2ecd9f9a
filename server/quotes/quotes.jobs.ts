// Quote expiry as a durable job, scheduled with the quote at its `expiresAt`: reads already show an
// expired quote as EXPIRED; the job records it, and expires a payment still waiting for funds.
import { defineJob } from '../jobs/job-definition.ts';
import { expireQuote } from './quote-execution.ts';

export const expireQuoteJob = defineJob<{ platformId: string; quoteId: string }>({
  kind: 'quotes.expire',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { platformId, quoteId }) => expireQuote({ ...ctx, platformId }, quoteId),
});
