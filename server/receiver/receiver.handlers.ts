// Receiver lookups before a quote.
import type { AreaHandlers } from '../context/handler-types.ts';
import { lookupExternalAccountReceiver, lookupUmaReceiver } from './receiver.service.ts';

export const receiverHandlers: AreaHandlers<'lookupUmaReceiver' | 'lookupExternalAccountReceiver'> = {
  lookupUmaReceiver: async (req, ctx) => ({ status: 200, body: await lookupUmaReceiver(ctx, req.path.receiverUmaAddress, req.query) }),
  lookupExternalAccountReceiver: async (req, ctx) => ({ status: 200, body: await lookupExternalAccountReceiver(ctx, req.path.externalAccountId, req.query) }),
};
