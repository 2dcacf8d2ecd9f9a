// Cross-currency payments: quotes and their execution (a real-time-funded quote is paid by POST /sandbox/send).
import type { AreaHandlers } from '../context/handler-types.ts';
import { signatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { executeQuote } from './quote-execution.ts';
import { createQuote, getQuote } from './quotes.service.ts';

export const quoteHandlers: AreaHandlers<'createQuote' | 'getQuote' | 'executeQuote'> = {
  createQuote: async (req, ctx) => ({ status: 201, body: await createQuote(ctx, req.body) }),
  getQuote: async (req, ctx) => ({ status: 200, body: await getQuote(ctx, req.path.quoteId) }),
  executeQuote: async (req, ctx) => ({ status: 200, body: await executeQuote(ctx, req.path.quoteId, signatureHeaders(req.headers)) }),
};
