// Sandbox operations: funding, paying a real-time-funded quote, receiving an UMA payment.
import type { AreaHandlers } from '../context/handler-types.ts';
import { payRealtimeQuote } from '../quotes/quote-execution.ts';
import { fundInternalAccount } from './sandbox.service.ts';
import { receiveUmaPayment } from './uma-receive.ts';

export const sandboxHandlers: AreaHandlers<'fundSandboxInternalAccount' | 'sendSandboxPayment' | 'receiveSandboxUmaPayment'> = {
  fundSandboxInternalAccount: async (req, ctx) => ({ status: 200, body: await fundInternalAccount(ctx, req.path.accountId, req.body.amount) }),
  sendSandboxPayment: async (req, ctx) => ({ status: 200, body: await payRealtimeQuote(ctx, req.body) }),
  receiveSandboxUmaPayment: async (req, ctx) => ({ status: 200, body: await receiveUmaPayment(ctx, req.body) }),
};
