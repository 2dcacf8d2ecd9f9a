// Indicative exchange rates.
import type { AreaHandlers } from '../context/handler-types.ts';
import { listExchangeRates } from './exchange-rates.service.ts';

export const exchangeRateHandlers: AreaHandlers<'listExchangeRates'> = {
  listExchangeRates: async (req, ctx) => ({ status: 200, body: await listExchangeRates(ctx, req.query) }),
};
