import type { components } from '../../generated/openapi.js';
import { defaultLimits, unitsPerUsd } from '../exchange-rates/sandbox-market.ts';
import { currency } from '../shared/currencies.ts';
import type { LookupRow } from './receiver.repository.ts';

type Schemas = components['schemas'];

function receiverCurrency(code: string): Schemas['ReceiverCurrency'] {
  const { min, max } = defaultLimits(code);
  return { currency: currency(code), estimatedExchangeRate: unitsPerUsd(code), min, max };
}

export const toUmaLookup = (row: LookupRow): Schemas['UmaReceiverLookup'] => ({
  lookupId: row.id,
  receiverUmaAddress: row.target,
  supportedCurrencies: row.currencies.map(receiverCurrency),
  requiredPayerDataFields: row.required_fields,
});

export const toExternalAccountLookup = (row: LookupRow): Schemas['ExternalAccountReceiverLookup'] => ({
  lookupId: row.id,
  accountId: row.target,
  supportedCurrencies: row.currencies.map(receiverCurrency),
  requiredPayerDataFields: row.required_fields,
});
