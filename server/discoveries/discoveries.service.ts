// Reachable banks per country and currency, from the sandbox's table, filtered and paginated.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { pageOfItems, type Page } from '../shared/page.ts';
import { discoveryKey, toDiscovery } from './discoveries.mapper.ts';
import { SANDBOX_BANKS } from './sandbox-banks.ts';

type Discovery = components['schemas']['Discovery'];

export function listDiscoveries(ctx: PlatformContext, query: { country?: string; currency?: string; limit?: number; cursor?: string }): Page<Discovery> {
  const { limit, cursor, ...filters } = query;
  const banks = SANDBOX_BANKS.filter((b) => (filters.country === undefined || b.country === filters.country) && (filters.currency === undefined || b.currency === filters.currency));
  const page = pageOfItems(ctx.keys, banks, discoveryKey, { ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }, filters);
  return { ...page, data: page.data.map(toDiscovery) };
}
