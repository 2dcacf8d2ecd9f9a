// Platform configuration: read it, change it.
import type { AreaHandlers } from '../context/handler-types.ts';
import { getConfig, updateConfig } from './platform.service.ts';

export const platformHandlers: AreaHandlers<'getPlatformConfig' | 'updatePlatformConfig'> = {
  getPlatformConfig: async (_req, ctx) => ({ status: 200, body: await getConfig(ctx) }),
  updatePlatformConfig: async (req, ctx) => ({ status: 200, body: await updateConfig(ctx, req.body) }),
};
