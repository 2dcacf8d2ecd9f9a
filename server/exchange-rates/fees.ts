// The fees of a payment sent in a currency: the service's own (sandbox-market.ts) plus the
// platform's, as quotes and exchange rates include them.
import type { PlatformContext } from '../context.ts';
import { serviceFixedFee, SERVICE_VARIABLE_FEE_BPS } from './sandbox-market.ts';

export interface Fees {
  /** In smallest units of the sending currency. */
  readonly fixedFee: number;
  readonly variableFeeBps: number;
}

export async function feesFor(_ctx: PlatformContext, sendingCurrency: string): Promise<Fees> {
  return { fixedFee: serviceFixedFee(sendingCurrency), variableFeeBps: SERVICE_VARIABLE_FEE_BPS };
}
