// How much of its spending limits an agent has used: its approved actions of the current UTC day
// and month (the windows follow the service's clock).
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { countedSince } from './agent-actions.repository.ts';
import type { AgentRow } from './agents.repository.ts';

export const startOfDay = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
export const startOfMonth = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

export async function usageOf(ctx: PlatformContext, agent: AgentRow): Promise<components['schemas']['AgentUsage']> {
  const now = ctx.clock.now();
  const today = await countedSince(ctx.db, agent.id, startOfDay(now), ['APPROVED']);
  const month = await countedSince(ctx.db, agent.id, startOfMonth(now), ['APPROVED']);
  const day = now.toISOString().slice(0, 10);
  return { dailyTransactionCount: today.count, dailySpend: today.total, monthlySpend: month.total, dailyResetDate: day, monthlyResetMonth: day.slice(0, 7) };
}
