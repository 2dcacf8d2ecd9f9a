import type { components } from '../../generated/openapi.js';
import type { BusinessProfile, IndividualProfile } from '../db/schema.ts';
import { iso } from '../shared/clock.ts';
import { Keyring } from '../shared/keyring.ts';
import type { CustomerRow } from './customers.repository.ts';

type Customer = components['schemas']['Customer'];
type BusinessInfo = components['schemas']['BusinessInfo'];

/**
 * How a business's tax id, stored sealed, is shown: opened with the server's keys in API answers,
 * or left out (`WITHOUT_TAX_ID`) of webhook bodies, which the outbox stores as they are sent.
 */
export type TaxIdView = Keyring | 'WITHOUT_TAX_ID';
export const WITHOUT_TAX_ID = 'WITHOUT_TAX_ID';

/** The business info as shown: its tax id opened or left out (a value stored in clear by an earlier version is shown as it is). */
export function shownBusinessInfo(info: BusinessInfo, view: TaxIdView): BusinessInfo {
  if (info.taxId === undefined) return info;
  const { taxId, ...rest } = info;
  if (view === WITHOUT_TAX_ID) return rest;
  return { ...rest, taxId: Keyring.isSealed(taxId) ? view.open(taxId) : taxId };
}

export const INDIVIDUAL_FIELDS = ['fullName', 'birthDate', 'nationality', 'address', 'idType', 'countryOfIssuance'] as const;

/**
 * Built field by field in the documented order, leaving out the absent ones: a list page maps 20
 * customers, and spreading intermediate objects through `compact` showed in its profile
 * (bench/README.md).
 */
export function toCustomer(row: CustomerRow, taxIds: TaxIdView): Customer {
  const customer: Record<string, unknown> = { id: row.id, platformCustomerId: row.platform_customer_id };
  if (row.region !== null) customer.region = row.region;
  customer.currencies = row.currencies;
  customer.embeddedWalletCurrencies = row.embedded_wallet_currencies;
  if (row.email !== null) customer.email = row.email;
  if (row.phone_number !== null) customer.phoneNumber = row.phone_number;
  customer.umaAddress = row.uma_address;
  customer.createdAt = iso(row.created_at);
  customer.updatedAt = iso(row.updated_at);
  customer.isDeleted = row.is_deleted;
  if (row.customer_type === 'BUSINESS') {
    const profile = row.profile as BusinessProfile;
    customer.customerType = 'BUSINESS';
    if (row.kyb_status !== null) customer.kybStatus = row.kyb_status;
    if (profile.address !== undefined) customer.address = profile.address;
    if (profile.businessInfo !== undefined) customer.businessInfo = shownBusinessInfo(profile.businessInfo, taxIds);
    return customer as Customer;
  }
  const profile = row.profile as IndividualProfile;
  customer.customerType = 'INDIVIDUAL';
  customer.kycStatus = row.kyc_status ?? 'UNVERIFIED';
  for (const field of INDIVIDUAL_FIELDS) if (profile[field] !== undefined) customer[field] = profile[field];
  return customer as Customer;
}
