// Quote expiry as a durable job, scheduled with the quote at its `expiresAt`: reads already show an
// expired quote as EXPIRED; the job records it, and expires a payment still waiting for funds.
import type { PlatformContext } from '../context/context.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { expirePayment } from '../payments/payments.service.ts';
import { waitingTransaction } from './quote-execution.ts';
import { closeQuote, findQuoteForUpdate } from './quotes.repository.ts';

export const expireQuoteJob = defineJob<{ platformId: string; quoteId: string }>({
  kind: 'quotes.expire',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { platformId, quoteId }) => expireQuote({ ...ctx, platformId }, quoteId),
});

/** An open quote past `expiresAt` becomes EXPIRED, and so does a payment still waiting for funds. */
async function expireQuote(ctx: PlatformContext, quoteId: string): Promise<void> {
  const quote = await findQuoteForUpdate(ctx.db, ctx.platformId, quoteId);
  if (quote === undefined || quote.state !== 'PENDING' || quote.expires_at.getTime() > ctx.clock.now().getTime()) return;
  await closeQuote(ctx.db, quote.id, { state: 'EXPIRED', updated_at: ctx.clock.now() });
  if (quote.transaction_id === null) return;
  const transaction = await waitingTransaction(ctx, quote);
  if (transaction.status === 'PENDING') await expirePayment(ctx, transaction);
}
