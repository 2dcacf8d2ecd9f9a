// The objects tests start from, made through the public API with the suite's checked client (so
// every response on the way is checked against the contract). A factory returns what it made or
// throws an Error naming the step that failed; it never returns undefined. Request defaults are
// only what the request requires, plus a unique platformCustomerId; a test states every other
// field its assertions depend on. A field given as undefined is left out of the request.
import type { components, operations as Operations } from '../../generated/openapi.js';
import type { PaymentsClient } from '../../client/index.ts';
import { api, client, isMock, unique } from './api.ts';
import { externalAccountInfo } from './external-account-info.ts';
import { ownerPersonalInfo } from './personal-info.ts';

export { ownerPersonalInfo };

type Schemas = components['schemas'];
export type Permission = Schemas['Permission'];
export type CustomerType = Schemas['CustomerType'];
type IndividualOverrides = Partial<Omit<Schemas['IndividualCustomerCreateRequest'], 'customerType'>>;
type BusinessOverrides = Partial<Omit<Schemas['BusinessCustomerCreateRequest'], 'customerType' | 'businessInfo'>> & {
  /** Merged field by field into the default businessInfo. */
  businessInfo?: Partial<Schemas['BusinessInfoCreate']>;
};
type Overrides<T extends CustomerType> = T extends 'BUSINESS' ? BusinessOverrides : IndividualOverrides;

/** The spec's example objects: what the Prism mock answers with, for tests that also run on it. */
export const examples = {
  individualCustomerId: 'Customer:019542f5-b3e7-1d02-0000-000000000001',
  businessCustomerId: 'Customer:019542f5-b3e7-1d02-0000-000000000011',
  internalAccountId: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000005',
} as const;

/** The body of a successful call, or an Error saying which call answered what. */
async function expectStatus<T>(step: string, status: number, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.status !== status || data === undefined) {
    throw new Error(`${step}: expected ${status}, got ${response.status}: ${JSON.stringify(error ?? data)}`);
  }
  return data;
}

// Customers

export async function createIndividualCustomer(overrides: IndividualOverrides = {}): Promise<Schemas['IndividualCustomer']> {
  const body = { customerType: 'INDIVIDUAL' as const, platformCustomerId: `ind-${unique()}`, ...overrides };
  const customer = await expectStatus('POST /customers', 201, api.POST('/customers', { body }));
  if (customer.customerType !== 'INDIVIDUAL') throw new Error(`POST /customers: asked for an individual, got ${customer.customerType}`);
  return customer;
}

export async function createBusinessCustomer(overrides: BusinessOverrides = {}): Promise<Schemas['BusinessCustomer']> {
  const { businessInfo, ...rest } = overrides;
  const body = {
    customerType: 'BUSINESS' as const,
    platformCustomerId: `biz-${unique()}`,
    ...rest,
    businessInfo: { legalName: 'Acme Corporation', country: 'US', ...businessInfo },
  };
  const customer = await expectStatus('POST /customers', 201, api.POST('/customers', { body }));
  if (customer.customerType !== 'BUSINESS') throw new Error(`POST /customers: asked for a business, got ${customer.customerType}`);
  return customer;
}

/**
 * The id of a new customer of that type (an individual by default), for tests that also run on the mock: the mock keeps
 * nothing, so there it is the spec's example customer of that type and nothing is created.
 */
export async function newCustomerId<T extends CustomerType = 'INDIVIDUAL'>(type: T = 'INDIVIDUAL' as T, overrides?: Overrides<T>): Promise<string> {
  if (isMock) return type === 'BUSINESS' ? examples.businessCustomerId : examples.individualCustomerId;
  const customer = type === 'BUSINESS' ? await createBusinessCustomer(overrides as BusinessOverrides) : await createIndividualCustomer(overrides as IndividualOverrides);
  return customer.id;
}

/** Soft-deletes a customer. */
export async function deleteCustomer(customerId: string): Promise<Schemas['Customer']> {
  return expectStatus(`DELETE /customers/${customerId}`, 200, api.DELETE('/customers/{customerId}', { params: { path: { customerId } } }));
}

// Beneficial owners

/** A UBO and director with 40 %, unless the fields say otherwise. */
export async function createBeneficialOwner(customerId: string, fields: Partial<Schemas['BeneficialOwnerCreateRequest']> = {}): Promise<Schemas['BeneficialOwner']> {
  const body = { customerId, roles: ['UBO', 'DIRECTOR'] as Schemas['BeneficialOwnerRole'][], ownershipPercentage: 40, personalInfo: ownerPersonalInfo(), ...fields };
  return expectStatus('POST /beneficial-owners', 201, api.POST('/beneficial-owners', { body }));
}

// Internal accounts and funding

/** Every internal account of a customer, newest first. */
export async function customerInternalAccounts(customerId: string): Promise<Schemas['InternalAccount'][]> {
  const page = await expectStatus('GET /customers/internal-accounts', 200, api.GET('/customers/internal-accounts', { params: { query: { customerId, limit: 100 } } }));
  return page.data;
}

/** The customer's internal account in that currency (held by the service, not an Embedded Wallet). */
export async function customerInternalAccount(customerId: string, currency: string): Promise<Schemas['InternalAccount']> {
  const page = await expectStatus('GET /customers/internal-accounts', 200, api.GET('/customers/internal-accounts', { params: { query: { customerId, currency, limit: 100 } } }));
  const account = page.data.find((a) => a.type !== 'EMBEDDED_WALLET');
  if (account === undefined) throw new Error(`customer ${customerId} has no ${currency} internal account`);
  return account;
}

/** The platform's own internal account in that currency. */
export async function platformInternalAccount(currency: string): Promise<Schemas['InternalAccount']> {
  const page = await expectStatus('GET /platform/internal-accounts', 200, api.GET('/platform/internal-accounts', { params: { query: { currency } } }));
  const account = page.data[0];
  if (account === undefined) throw new Error(`the platform has no ${currency} internal account`);
  return account;
}

/** The internal account of a new customer who holds only that currency; its balance is 0. */
export async function newCustomerAccount(currency = 'USD'): Promise<Schemas['InternalAccount']> {
  const customer = await createIndividualCustomer({ currencies: [currency] });
  return customerInternalAccount(customer.id, currency);
}

/**
 * Sandbox funding, answered as the client answers (tests check refusals and replays too): with an
 * Idempotency-Key when `key` is given, extra request headers (the server's fault injection), and
 * another client's credentials with `via`.
 */
export function fund(accountId: string, amount: number, key?: string, options: { headers?: Record<string, string>; via?: PaymentsClient } = {}) {
  return (options.via ?? api).POST('/sandbox/internal-accounts/{accountId}/fund', {
    params: { path: { accountId }, header: key === undefined ? {} : { 'Idempotency-Key': key } },
    body: { amount },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
}

/** A new customer's internal account holding `amount` (in the currency's smallest unit). */
export async function fundedAccount(currency: string, amount: number): Promise<Schemas['InternalAccount']> {
  const account = await newCustomerAccount(currency);
  return expectStatus(`POST /sandbox/internal-accounts/${account.id}/fund`, 200, fund(account.id, amount));
}

export async function balanceOf(accountId: string): Promise<number> {
  const account = await expectStatus(`GET /internal-accounts/${accountId}`, 200, api.GET('/internal-accounts/{accountId}', { params: { path: { accountId } } }));
  return account.balance.amount;
}

// External accounts (accountInfo builders: external-account-info.ts)

/** A customer's external account, or the platform's when the body has no customerId. */
export async function createExternalAccount(body: Schemas['ExternalAccountCreateRequest']): Promise<Schemas['ExternalAccount']> {
  return expectStatus('POST /customers/external-accounts', 201, api.POST('/customers/external-accounts', { body }));
}

export async function createPlatformExternalAccount(body: Schemas['PlatformExternalAccountCreateRequest']): Promise<Schemas['ExternalAccount']> {
  return expectStatus('POST /platform/external-accounts', 201, api.POST('/platform/external-accounts', { body }));
}

// Tokens

export type CreatedToken = Schemas['Token'] & { clientSecret: string };

/** A new API token, with its secret (shown only by this response). */
export async function createToken(permissions: Permission[], name = `test ${unique()}`): Promise<CreatedToken> {
  const token = await expectStatus('POST /tokens', 201, api.POST('/tokens', { body: { name, permissions } }));
  const { clientSecret } = token;
  if (clientSecret === undefined) throw new Error('POST /tokens: the new token has no clientSecret');
  return { ...token, clientSecret };
}

/** A checked client with the token's credentials. */
export const clientFor = (token: { clientId: string; clientSecret: string }): PaymentsClient => client({ clientId: token.clientId, clientSecret: token.clientSecret });

/** A checked client whose new token has only these permissions. */
export async function tokenWith(permissions: Permission[]): Promise<PaymentsClient> {
  return clientFor(await createToken(permissions));
}

// Transfers and transactions

export type Transaction = Schemas['Transaction'];

/**
 * The transaction a transfer answered with its 201, or an Error saying what it answered instead
 * (a transfer-out from an Embedded Wallet answers a 202 SignedRetryChallenge first).
 */
export function created(result: { data?: Transaction | Schemas['SignedRetryChallenge']; error?: unknown; response: Response }): Transaction {
  const { data } = result;
  if (result.response.status !== 201 || data === undefined || !('id' in data)) throw new Error(`expected 201, got ${result.response.status}: ${JSON.stringify(result.error ?? data)}`);
  return data;
}
export type TransactionListQuery = NonNullable<Operations['listTransactions']['parameters']['query']>;

/** Options of the transfer and cancel helpers: an Idempotency-Key, and another client (a second token, a server of the test's own). */
export interface CallOptions {
  key?: string;
  via?: PaymentsClient;
}

const idempotencyHeader = (key?: string): { 'Idempotency-Key'?: string } => (key === undefined ? {} : { 'Idempotency-Key': key });

/** POST /transfer-in, answered as the client answers (tests check refusals and replays too). */
export function transferIn(body: Schemas['TransferInRequest'], options: CallOptions = {}) {
  return (options.via ?? api).POST('/transfer-in', { params: { header: idempotencyHeader(options.key) }, body });
}

/** POST /transfer-out, answered as the client answers. */
export function transferOut(body: Schemas['TransferOutRequest'], options: CallOptions = {}) {
  return (options.via ?? api).POST('/transfer-out', { params: { header: idempotencyHeader(options.key) }, body });
}

/** POST /transactions/{transactionId}/cancel, with the body when given, answered as the client answers. */
export function cancelTransaction(transactionId: string, body?: Schemas['TransactionCancelRequest'], options: CallOptions = {}) {
  return (options.via ?? api).POST('/transactions/{transactionId}/cancel', {
    params: { path: { transactionId }, header: idempotencyHeader(options.key) },
    ...(body === undefined ? {} : { body }),
  });
}

/** The transaction as it is now. */
export async function getTransaction(transactionId: string, via: PaymentsClient = api): Promise<Transaction> {
  return expectStatus(`GET /transactions/${transactionId}`, 200, via.GET('/transactions/{transactionId}', { params: { path: { transactionId } } }));
}

/** A page of GET /transactions, its items typed as transactions. */
export type TransactionPage = Omit<Schemas['TransactionListResponse'], 'data'> & { data: Transaction[] };

/** One page of GET /transactions with these filters. */
export async function listTransactions(query: TransactionListQuery, via: PaymentsClient = api): Promise<TransactionPage> {
  const page = await expectStatus('GET /transactions', 200, via.GET('/transactions', { params: { query } }));
  return { ...page, data: page.data as Transaction[] };
}

export type TransferCurrency = 'USD' | 'EUR' | 'MXN' | 'BTC';

/**
 * A new individual customer holding only `currency` (USD by default), their internal account in
 * it (funded with `funding` when given) and an external account of theirs in that currency whose
 * primary identifier (account number, IBAN, CLABE, wallet address) ends with `suffix`. Made
 * through `via` (a server of the test's own) when given.
 */
export async function customerWithExternalAccount(
  suffix: string,
  options: { currency?: TransferCurrency; funding?: number; via?: PaymentsClient } = {},
): Promise<{ customer: Schemas['IndividualCustomer']; internal: Schemas['InternalAccount']; external: Schemas['ExternalAccount'] }> {
  const via = options.via ?? api;
  const currency = options.currency ?? 'USD';
  const body = { customerType: 'INDIVIDUAL' as const, platformCustomerId: `xfer-${unique()}`, fullName: 'Jane Doe', currencies: [currency] };
  const customer = await expectStatus('POST /customers', 201, via.POST('/customers', { body }));
  if (customer.customerType !== 'INDIVIDUAL') throw new Error(`POST /customers: asked for an individual, got ${customer.customerType}`);
  const page = await expectStatus('GET /customers/internal-accounts', 200, via.GET('/customers/internal-accounts', { params: { query: { customerId: customer.id, currency } } }));
  let internal = page.data[0];
  if (internal === undefined) throw new Error(`customer ${customer.id} has no ${currency} internal account`);
  if (options.funding !== undefined) {
    internal = await expectStatus(`POST /sandbox/internal-accounts/${internal.id}/fund`, 200, fund(internal.id, options.funding, undefined, { via }));
  }
  const accountInfo = { USD: externalAccountInfo.usd, EUR: externalAccountInfo.eur, MXN: externalAccountInfo.mxn, BTC: externalAccountInfo.spark }[currency](suffix);
  const external = await expectStatus('POST /customers/external-accounts', 201, via.POST('/customers/external-accounts', { body: { customerId: customer.id, currency, accountInfo } }));
  return { customer, internal, external };
}

/** An internal account's balance amount, read through `via` (a server of the test's own). */
export async function balanceThrough(accountId: string, via: PaymentsClient): Promise<number> {
  const account = await expectStatus(`GET /internal-accounts/${accountId}`, 200, via.GET('/internal-accounts/{accountId}', { params: { path: { accountId } } }));
  return account.balance.amount;
}

/**
 * A checked client (every response checked against the contract, as `api`'s) of a server of the
 * test's own, with that server's credentials.
 */
export const checkedClientOf = (serverBaseUrl: string, token: { clientId: string; clientSecret: string }): PaymentsClient =>
  client({ clientId: token.clientId, clientSecret: token.clientSecret }, serverBaseUrl);
