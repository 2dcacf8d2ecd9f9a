// Customers: create (with one internal account per currency), list, get, update, soft delete;
// and what other areas need of a customer (access checks, verification status changes).
import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import type { BusinessProfile, IndividualProfile } from '../db/schema.ts';
import { openInternalAccounts } from '../internal-accounts/internal-accounts.service.ts';
import { findPlatformUmaDomain } from '../platform/platform.repository.ts';
import { compact } from '../shared/compact.ts';
import { isKnownCurrency } from '../shared/currencies.ts';
import { conflict, gone, invalidField, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertInitial, assertTransition } from '../shared/state-machine.ts';
import { INDIVIDUAL_FIELDS, toCustomer } from './customers.mapper.ts';
import type { Keyring } from '../shared/keyring.ts';
import {
  findCustomer,
  findCustomerForUpdate,
  insertCustomer,
  listCustomers as listCustomerRows,
  listUnsealedIdentifiers,
  listUnsealedTaxIds,
  moveVerificationStatus,
  setIdentifier,
  setProfile,
  softDeleteCustomer,
  updateCustomer as updateCustomerRow,
  violatedCustomerConstraint,
  type CustomerChanges,
  type CustomerFilters,
  type CustomerRow,
} from './customers.repository.ts';
import { generateUmaAddress } from './uma-address.ts';

type Schemas = components['schemas'];
type Customer = Schemas['Customer'];
type KycStatus = Schemas['KycStatus'];

export async function requireCustomer(ctx: PlatformContext, customerId: string): Promise<CustomerRow> {
  const row = await findCustomer(ctx.db, ctx.platformId, customerId);
  if (row === undefined) throw notFound('CUSTOMER_NOT_FOUND', 'No such customer.');
  return row;
}

/**
 * The customer, locked for the rest of the transaction, when it may still be changed: a deleted
 * one can be read but not changed, verified or given owners, documents or accounts (410).
 */
export async function requireLiveCustomer(ctx: PlatformContext, customerId: string): Promise<CustomerRow> {
  const row = await findCustomerForUpdate(ctx.db, ctx.platformId, customerId);
  if (row === undefined) throw notFound('CUSTOMER_NOT_FOUND', 'No such customer.');
  if (row.is_deleted) throw gone('The customer has been deleted and can no longer be changed.');
  return row;
}

/** The platform's own reference of a customer, shown on the customer's transactions. */
export async function findPlatformCustomerId(ctx: PlatformContext, customerId: string): Promise<string | undefined> {
  return (await findCustomer(ctx.db, ctx.platformId, customerId))?.platform_customer_id;
}

/**
 * Moves the customer's KYC (individual) or KYB (business) status to a verification's outcome. A
 * business has none before its first outcome (KybStatus). Unchanged is no change; the update only
 * applies from the status read, so a concurrent move is noticed, never overwritten.
 */
export async function setVerificationStatus(ctx: PlatformContext, customer: CustomerRow, to: Exclude<KycStatus, 'UNVERIFIED'>): Promise<CustomerRow | undefined> {
  const business = customer.customer_type === 'BUSINESS';
  const from = business ? customer.kyb_status : (customer.kyc_status ?? 'UNVERIFIED');
  if (from === to) return undefined;
  if (from === null) assertInitial('KybStatus', to);
  else assertTransition(business ? 'KybStatus' : 'KycStatus', from, to);
  const moved = await moveVerificationStatus(ctx.db, customer.id, business ? 'kyb_status' : 'kyc_status', from, to, ctx.clock.now());
  if (moved === undefined) throw conflict('CONFLICT', 'The customer changed meanwhile; retry.');
  return moved;
}

/** Business info to store: its tax id, an identity number, sealed. */
function sealTaxId<T extends { taxId?: string }>(keys: Keyring, info: T): T {
  return info.taxId === undefined ? info : { ...info, taxId: keys.seal(info.taxId) };
}

/** The individual identity fields present in a request body. */
const individualFields = (body: Partial<Record<(typeof INDIVIDUAL_FIELDS)[number], unknown>>): IndividualProfile =>
  compact(Object.fromEntries(INDIVIDUAL_FIELDS.map((field) => [field, body[field]]))) as IndividualProfile;

/** Currencies must be ones the service can hold: each gets an internal account. */
function checkCurrencies(currencies: readonly string[], field = '/currencies'): void {
  const index = currencies.findIndex((code) => !isKnownCurrency(code));
  if (index >= 0) throw invalidField(`${field}/${index}`, `${currencies[index]} is not a currency the service supports.`, 'enum');
}

/** The currencies a new list adds to the held ones; a list that drops one is refused. */
function addedCurrencies(held: readonly string[], next: readonly string[], field: string, what: string): string[] {
  const dropped = held.filter((code) => !next.includes(code));
  if (dropped.length > 0) throw invalidField(field, `The list must keep every currency ${what}; missing: ${dropped.join(', ')}.`);
  checkCurrencies(next, field);
  return next.filter((code) => !held.includes(code));
}

/** Maps a violated unique constraint to its documented 409; anything else is rethrown as it is. */
async function writeOrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    switch (violatedCustomerConstraint(err)) {
      case 'customers_platform_customer_id':
        throw conflict('PLATFORM_CUSTOMER_ID_EXISTS', 'Another customer of the platform already has this platformCustomerId.');
      case 'customers_uma_address':
        throw conflict('UMA_ADDRESS_EXISTS', 'This UMA address is already taken.');
      default:
        throw err;
    }
  }
}

export async function createCustomer(ctx: PlatformContext, body: Schemas['CustomerCreateRequest']): Promise<Customer> {
  const currencies = [...new Set(body.currencies ?? ['USD'])];
  checkCurrencies(currencies);
  const walletCurrencies = [...new Set(body.embeddedWalletCurrencies ?? [])];
  checkCurrencies(walletCurrencies, '/embeddedWalletCurrencies');
  const id = newId('Customer');
  const at = ctx.clock.now();
  const business = body.customerType === 'BUSINESS';
  const profile: IndividualProfile | BusinessProfile =
    body.customerType === 'BUSINESS' ? compact({ address: body.address, businessInfo: sealTaxId(ctx.keys, body.businessInfo) }) : individualFields(body);
  const name = body.customerType === 'BUSINESS' ? (body.businessInfo.doingBusinessAs ?? body.businessInfo.legalName) : body.fullName;
  const umaAddress = body.umaAddress ?? generateUmaAddress(name, await findPlatformUmaDomain(ctx.db, ctx.platformId));
  const identifier = body.customerType === 'INDIVIDUAL' ? body.identifier : undefined;
  const row = await writeOrConflict(() =>
    insertCustomer(ctx.db, {
      id,
      platform_id: ctx.platformId,
      platform_customer_id: body.platformCustomerId ?? randomUUID(),
      customer_type: body.customerType,
      region: body.region ?? null,
      currencies,
      embedded_wallet_currencies: walletCurrencies,
      email: body.email ?? null,
      phone_number: body.phoneNumber ?? null,
      uma_address: umaAddress,
      kyc_status: business ? null : 'UNVERIFIED',
      // A business has no KYB status until its first verification's outcome.
      kyb_status: null,
      profile,
      identifier: identifier === undefined ? null : ctx.keys.seal(identifier),
      created_at: at,
      updated_at: at,
    }),
  );
  await openInternalAccounts(ctx, id, currencies);
  await openInternalAccounts(ctx, id, walletCurrencies, 'EMBEDDED_WALLET');
  return toCustomer(row, ctx.keys);
}

export async function listCustomers(ctx: PlatformContext, query: CustomerFilters & { limit?: number; cursor?: string }): Promise<Page<Customer>> {
  return listPage(ctx.keys, query, (filters, page) => listCustomerRows(ctx.db, ctx.platformId, filters, page), (row) => toCustomer(row, ctx.keys));
}

export async function getCustomer(ctx: PlatformContext, customerId: string): Promise<Customer> {
  return toCustomer(await requireCustomer(ctx, customerId), ctx.keys);
}

export async function updateCustomer(ctx: PlatformContext, customerId: string, body: Schemas['CustomerUpdateRequest']): Promise<Customer> {
  const row = await requireLiveCustomer(ctx, customerId);
  if (body.customerType !== row.customer_type) {
    throw invalidField('/customerType', `The customer is ${row.customer_type}; its type cannot be changed.`, 'const');
  }
  const changes: CustomerChanges = {};
  let added: string[] = [];
  let addedWallets: string[] = [];
  if (body.currencies !== undefined) {
    added = addedCurrencies(row.currencies, body.currencies, '/currencies', 'the customer holds');
    changes.currencies = body.currencies;
  }
  if (body.embeddedWalletCurrencies !== undefined) {
    addedWallets = addedCurrencies(row.embedded_wallet_currencies, body.embeddedWalletCurrencies, '/embeddedWalletCurrencies', 'in which the customer has a wallet');
    changes.embedded_wallet_currencies = body.embeddedWalletCurrencies;
  }
  if (body.email !== undefined) changes.email = body.email;
  if (body.phoneNumber !== undefined) changes.phone_number = body.phoneNumber;
  if (body.umaAddress !== undefined) changes.uma_address = body.umaAddress;
  if (body.customerType === 'BUSINESS') {
    const current = row.profile as BusinessProfile;
    changes.profile = compact({ address: body.address ?? current.address, businessInfo: { ...current.businessInfo, ...compact(sealTaxId(ctx.keys, body.businessInfo ?? {})) } });
  } else {
    changes.profile = { ...(row.profile as IndividualProfile), ...individualFields(body) };
    if (body.identifier !== undefined) changes.identifier = ctx.keys.seal(body.identifier);
  }
  const updated = await writeOrConflict(() => updateCustomerRow(ctx.db, row.id, changes, ctx.clock.now()));
  await openInternalAccounts(ctx, row.id, added);
  await openInternalAccounts(ctx, row.id, addedWallets, 'EMBEDDED_WALLET');
  return toCustomer(updated, ctx.keys);
}

export async function deleteCustomer(ctx: PlatformContext, customerId: string): Promise<Customer> {
  const row = await requireLiveCustomer(ctx, customerId);
  return toCustomer(await softDeleteCustomer(ctx.db, row.id, ctx.clock.now()), ctx.keys);
}

/** Identity numbers (and business tax ids) stored before the server sealed them are sealed once, at start. */
export async function sealLegacyIdentifiers(ctx: ServiceContext): Promise<number> {
  const legacy = await listUnsealedIdentifiers(ctx.db);
  for (const c of legacy) await setIdentifier(ctx.db, c.id, ctx.keys.seal(c.identifier));
  const taxIds = await listUnsealedTaxIds(ctx.db);
  for (const c of taxIds) await setProfile(ctx.db, c.id, { ...c.profile, businessInfo: sealTaxId(ctx.keys, c.profile.businessInfo) });
  return legacy.length + taxIds.length;
}
