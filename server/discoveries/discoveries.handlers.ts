// Banks the service can pay, per country and currency.
import type { AreaHandlers } from '../context/handler-types.ts';
import { listDiscoveries } from './discoveries.service.ts';

export const discoveryHandlers: AreaHandlers<'listDiscoveries'> = {
  listDiscoveries: async (req, ctx) => ({ status: 200, body: listDiscoveries(ctx, req.query) }),
};
