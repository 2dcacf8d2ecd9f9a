import type { components } from '../../generated/openapi.js';
import type { BusinessProfile, IndividualProfile } from '../db/schema.ts';
import { iso } from '../shared/clock.ts';
import { compact } from '../shared/compact.ts';
import type { CustomerRow } from './customers.repository.ts';

type Customer = components['schemas']['Customer'];

export const INDIVIDUAL_FIELDS = ['fullName', 'birthDate', 'nationality', 'address', 'idType', 'countryOfIssuance'] as const;

export function toCustomer(row: CustomerRow): Customer {
  const base = {
    id: row.id,
    platformCustomerId: row.platform_customer_id,
    region: row.region ?? undefined,
    currencies: row.currencies,
    embeddedWalletCurrencies: row.embedded_wallet_currencies,
    email: row.email ?? undefined,
    phoneNumber: row.phone_number ?? undefined,
    umaAddress: row.uma_address,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    isDeleted: row.is_deleted,
  };
  if (row.customer_type === 'BUSINESS') {
    const profile = row.profile as BusinessProfile;
    return compact({ ...base, customerType: 'BUSINESS' as const, kybStatus: row.kyb_status ?? 'UNVERIFIED', address: profile.address, businessInfo: profile.businessInfo });
  }
  const profile = row.profile as IndividualProfile;
  return compact({
    ...base,
    customerType: 'INDIVIDUAL' as const,
    kycStatus: row.kyc_status ?? 'UNVERIFIED',
    ...Object.fromEntries(INDIVIDUAL_FIELDS.map((field) => [field, profile[field]])),
  });
}
