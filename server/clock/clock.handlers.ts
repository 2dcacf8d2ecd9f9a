// The platform's sandbox clock: read it, advance it.
import type { AreaHandlers } from '../context/handler-types.ts';
import { withoutTransaction } from '../context/handler-types.ts';
import { advanceSandboxClock, readSandboxClock } from './clock.service.ts';

export const sandboxClockHandlers: AreaHandlers<'getSandboxClock' | 'advanceSandboxClock'> = {
  getSandboxClock: async (_req, ctx) => ({ status: 200, body: await readSandboxClock(ctx) }),
  // Each step of an advance commits, and webhook deliveries wait on the network: no request transaction.
  advanceSandboxClock: withoutTransaction(async (req, ctx) => ({ status: 200, body: await advanceSandboxClock(ctx, req.body) })),
};
