import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { PlatformRow } from './platform.repository.ts';

type PlatformConfig = components['schemas']['PlatformConfig'];

export const toConfig = (row: PlatformRow): PlatformConfig => ({
  id: row.id,
  name: row.name,
  umaDomain: row.uma_domain,
  ...(row.webhook_endpoint === null ? {} : { webhookEndpoint: row.webhook_endpoint }),
  supportedCurrencies: row.supported_currencies,
  feeConfigs: row.fee_configs.map((f) => ({ sourceCurrency: f.sourceCurrency, fixedFee: f.fixedFee, variableFeeBps: f.variableFeeBps })),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
