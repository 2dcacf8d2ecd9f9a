// Customers: create (with one internal account per currency), list, get, update, soft delete.
import type { components } from '../../generated/openapi.js';
import { isKnownCurrency } from '../currencies.ts';
import { conflict, invalidField } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { listPage } from '../http/pagination.ts';
import { openInternalAccounts } from '../internal-accounts/internal-accounts.repository.ts';
import { compact } from './compact.ts';
import { requireCustomer, requireLiveCustomer } from './customer-access.ts';
import {
  findPlatformUmaDomain,
  insertCustomer,
  listCustomers,
  softDeleteCustomer,
  updateCustomer,
  violatedCustomerConstraint,
  type CustomerChanges,
  type CustomerRow,
} from './customers.repository.ts';
import { generateUmaAddress } from './uma-address.ts';

type Schemas = components['schemas'];
type Customer = Schemas['Customer'];

/** What `profile` holds for an individual: the identity fields, as sent (never the identifier). */
interface IndividualProfile {
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: Schemas['Address'];
  idType?: Schemas['IdentificationType'];
  countryOfIssuance?: string;
}

/** What `profile` holds for a business. */
interface BusinessProfile {
  address?: Schemas['Address'];
  businessInfo: Schemas['BusinessInfo'];
}

const INDIVIDUAL_FIELDS = ['fullName', 'birthDate', 'nationality', 'address', 'idType', 'countryOfIssuance'] as const;

export function toCustomer(row: CustomerRow): Customer {
  const base = {
    id: row.id,
    platformCustomerId: row.platform_customer_id,
    region: row.region ?? undefined,
    currencies: row.currencies,
    email: row.email ?? undefined,
    phoneNumber: row.phone_number ?? undefined,
    umaAddress: row.uma_address,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    isDeleted: row.is_deleted,
  };
  if (row.customer_type === 'BUSINESS') {
    const profile = row.profile as unknown as BusinessProfile;
    return compact({
      ...base,
      customerType: 'BUSINESS' as const,
      kybStatus: (row.kyb_status ?? 'UNVERIFIED') as Schemas['KybStatus'],
      address: profile.address,
      businessInfo: profile.businessInfo,
    });
  }
  const profile = row.profile as unknown as IndividualProfile;
  return compact({
    ...base,
    customerType: 'INDIVIDUAL' as const,
    kycStatus: (row.kyc_status ?? 'UNVERIFIED') as Schemas['KycStatus'],
    ...Object.fromEntries(INDIVIDUAL_FIELDS.map((field) => [field, profile[field]])),
  });
}

/** The individual identity fields present in a request body. */
function individualFields(body: Partial<Record<(typeof INDIVIDUAL_FIELDS)[number], unknown>>): IndividualProfile {
  return compact(Object.fromEntries(INDIVIDUAL_FIELDS.map((field) => [field, body[field]]))) as IndividualProfile;
}

/** Currencies must be ones the service can hold: each gets an internal account. */
function checkCurrencies(currencies: readonly string[]): void {
  const index = currencies.findIndex((code) => !isKnownCurrency(code));
  if (index >= 0) throw invalidField(`/currencies/${index}`, `${currencies[index]} is not a currency the service supports.`, 'enum');
}

/** Maps a violated unique constraint to its documented 409; anything else is rethrown as it is. */
function uniqueConflict(err: unknown): unknown {
  switch (violatedCustomerConstraint(err)) {
    case 'customers_platform_customer_id':
      return conflict('PLATFORM_CUSTOMER_ID_EXISTS', 'Another customer of the platform already has this platformCustomerId.');
    case 'customers_uma_address':
      return conflict('UMA_ADDRESS_EXISTS', 'This UMA address is already taken.');
    default:
      return err;
  }
}

async function writeOrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw uniqueConflict(err);
  }
}

export const customerHandlers: AreaHandlers<'createCustomer' | 'listCustomers' | 'getCustomer' | 'updateCustomer' | 'deleteCustomer'> = {
  async createCustomer(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    const currencies = [...new Set(body.currencies ?? ['USD'])];
    checkCurrencies(currencies);
    const id = newId('Customer');
    const at = now();
    const business = body.customerType === 'BUSINESS';
    const profile: IndividualProfile | BusinessProfile =
      body.customerType === 'BUSINESS' ? compact({ address: body.address, businessInfo: body.businessInfo }) : individualFields(body);
    const name = body.customerType === 'BUSINESS' ? (body.businessInfo.doingBusinessAs ?? body.businessInfo.legalName) : body.fullName;
    const umaAddress = body.umaAddress ?? generateUmaAddress(name, await findPlatformUmaDomain(ctx.db, platformId));
    const row = await writeOrConflict(() =>
      insertCustomer(ctx.db, {
        id,
        platform_id: platformId,
        platform_customer_id: body.platformCustomerId ?? crypto.randomUUID(),
        customer_type: body.customerType,
        region: body.region ?? null,
        currencies,
        email: body.email ?? null,
        phone_number: body.phoneNumber ?? null,
        uma_address: umaAddress,
        kyc_status: business ? null : 'UNVERIFIED',
        kyb_status: business ? 'UNVERIFIED' : null,
        profile: profile as unknown as Record<string, unknown>,
        identifier: body.customerType === 'INDIVIDUAL' ? (body.identifier ?? null) : null,
        created_at: at,
        updated_at: at,
      }),
    );
    await openInternalAccounts(ctx.db, { platformId, customerId: id }, currencies, at);
    return { status: 201, body: toCustomer(row) };
  },

  async listCustomers(req, ctx) {
    return { status: 200, body: await listPage(req.query, (filters, page) => listCustomers(ctx.db, ctx.principal.platformId, filters, page), toCustomer) };
  },

  async getCustomer(req, ctx) {
    const row = await requireCustomer(ctx.db, ctx.principal.platformId, req.path.customerId);
    return { status: 200, body: toCustomer(row) };
  },

  async updateCustomer(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    const row = await requireLiveCustomer(ctx.db, platformId, req.path.customerId);
    if (body.customerType !== row.customer_type) {
      throw invalidField('/customerType', `The customer is ${row.customer_type}; its type cannot be changed.`, 'const');
    }
    const changes: CustomerChanges = {};
    let added: string[] = [];
    if (body.currencies !== undefined) {
      const dropped = row.currencies.filter((code) => !body.currencies?.includes(code));
      if (dropped.length > 0) {
        throw invalidField('/currencies', `The list must keep every currency the customer holds; missing: ${dropped.join(', ')}.`);
      }
      checkCurrencies(body.currencies);
      added = body.currencies.filter((code) => !row.currencies.includes(code));
      changes.currencies = body.currencies;
    }
    if (body.email !== undefined) changes.email = body.email;
    if (body.phoneNumber !== undefined) changes.phone_number = body.phoneNumber;
    if (body.umaAddress !== undefined) changes.uma_address = body.umaAddress;
    if (body.customerType === 'BUSINESS') {
      const current = row.profile as unknown as BusinessProfile;
      changes.profile = compact({
        address: body.address ?? current.address,
        businessInfo: { ...current.businessInfo, ...compact(body.businessInfo ?? {}) },
      });
    } else {
      changes.profile = { ...(row.profile as IndividualProfile), ...individualFields(body) };
      if (body.identifier !== undefined) changes.identifier = body.identifier;
    }
    const updated = await writeOrConflict(() => updateCustomer(ctx.db, row.id, changes, now()));
    await openInternalAccounts(ctx.db, { platformId, customerId: row.id }, added, updated.updated_at);
    return { status: 200, body: toCustomer(updated) };
  },

  async deleteCustomer(req, ctx) {
    const row = await requireLiveCustomer(ctx.db, ctx.principal.platformId, req.path.customerId);
    return { status: 200, body: toCustomer(await softDeleteCustomer(ctx.db, row.id, now())) };
  },
};
