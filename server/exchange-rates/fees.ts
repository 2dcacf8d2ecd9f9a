// The fees of a payment sent in a currency: the service's own (sandbox-market.ts) plus the
// platform's, as quotes and exchange rates include them. Computed from a configuration the caller
// has already read, so one request reads the platform once however many currencies it prices.
import type { components } from '../../generated/openapi.js';
import { serviceFixedFee, SERVICE_VARIABLE_FEE_BPS } from './sandbox-market.ts';

export interface Fees {
  /** In smallest units of the sending currency. */
  readonly fixedFee: number;
  readonly variableFeeBps: number;
}

export function feesFor(config: Pick<components['schemas']['PlatformConfig'], 'feeConfigs'>, sendingCurrency: string): Fees {
  const platform = config.feeConfigs.find((f) => f.sourceCurrency === sendingCurrency);
  return { fixedFee: serviceFixedFee(sendingCurrency) + (platform?.fixedFee ?? 0), variableFeeBps: SERVICE_VARIABLE_FEE_BPS + (platform?.variableFeeBps ?? 0) };
}
