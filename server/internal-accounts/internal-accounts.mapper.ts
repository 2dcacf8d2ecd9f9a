import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { currency } from '../shared/currencies.ts';
import { fundingPaymentInstructions } from './funding-instructions.ts';
import type { InternalAccountRow } from './internal-accounts.repository.ts';

type InternalAccount = components['schemas']['InternalAccount'];

export const toInternalAccount = (row: InternalAccountRow): InternalAccount => ({
  id: row.id,
  ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
  type: row.type,
  status: row.status,
  balance: { amount: row.balance, currency: currency(row.currency) },
  fundingPaymentInstructions: fundingPaymentInstructions(row),
  ...(row.type === 'EMBEDDED_WALLET' ? { privateEnabled: row.private_enabled ?? false } : {}),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
