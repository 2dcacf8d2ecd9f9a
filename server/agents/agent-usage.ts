// How much of its spending limits an agent has used in the current UTC day and month. Until agent
// actions exist nothing is counted; the windows follow the service's clock.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context.ts';
import type { AgentRow } from './agents.repository.ts';

export async function usageOf(ctx: PlatformContext, _agent: AgentRow): Promise<components['schemas']['AgentUsage']> {
  const day = ctx.clock.now().toISOString().slice(0, 10);
  return { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0, dailyResetDate: day, monthlyResetMonth: day.slice(0, 7) };
}
