// The fees of a payment sent in a currency: the service's own (sandbox-market.ts) plus the
// platform's, as quotes and exchange rates include them.
import type { PlatformContext } from '../context.ts';
import { platformFeeFor } from '../platform/platform.service.ts';
import { serviceFixedFee, SERVICE_VARIABLE_FEE_BPS } from './sandbox-market.ts';

export interface Fees {
  /** In smallest units of the sending currency. */
  readonly fixedFee: number;
  readonly variableFeeBps: number;
}

export async function feesFor(ctx: PlatformContext, sendingCurrency: string): Promise<Fees> {
  const platform = await platformFeeFor(ctx, sendingCurrency);
  return { fixedFee: serviceFixedFee(sendingCurrency) + platform.fixedFee, variableFeeBps: SERVICE_VARIABLE_FEE_BPS + platform.variableFeeBps };
}
