import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import type { Keyring } from '../shared/keyring.ts';
import { openedTaxId } from './account-info.ts';
import type { ExternalAccountRow } from './external-accounts.repository.ts';

/** The account as answered; `keys` open the beneficiary's tax id, stored sealed. */
export const toExternalAccount = (row: ExternalAccountRow, keys: Keyring): components['schemas']['ExternalAccount'] => ({
  id: row.id,
  status: row.status,
  currency: row.currency,
  accountInfo: openedTaxId(keys, row.account_info),
  ...(row.customer_id === null ? {} : { customerId: row.customer_id, defaultUmaDepositAccount: row.default_uma_deposit_account }),
  ...(row.platform_account_id === null ? {} : { platformAccountId: row.platform_account_id }),
  ...(row.beneficiary_verification_status === null ? {} : { beneficiaryVerificationStatus: row.beneficiary_verification_status }),
  ...(row.beneficiary_verified_name === null ? {} : { beneficiaryVerifiedData: { fullName: row.beneficiary_verified_name } }),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
