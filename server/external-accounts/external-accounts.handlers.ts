// External accounts of customers and of the platform: register (with the sandbox beneficiary name
// check and the single default UMA deposit account per customer), list, get, delete (INACTIVE).
import type { components } from '../../generated/openapi.js';
import type { Db } from '../db/database.ts';
import { badRequest, conflict, gone, invalidField, notFound } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { listPage, type PageRequest } from '../http/pagination.ts';
import { currencyMatches, expectedCurrency, primaryIdentifier, sandboxNameCheck } from './account-info.ts';
import {
  clearDefaultUmaDepositAccount,
  deactivateExternalAccount,
  findCustomerForAccounts,
  findExternalAccount,
  insertExternalAccount,
  listExternalAccounts,
  type ExternalAccountRow,
  type Owner,
} from './external-accounts.repository.ts';

type Schemas = components['schemas'];
type ExternalAccount = Schemas['ExternalAccount'];
type CreateInput = Schemas['ExternalAccountCreateRequest'];

export const toExternalAccount = (row: ExternalAccountRow): ExternalAccount => ({
  id: row.id,
  status: row.status as ExternalAccount['status'],
  currency: row.currency,
  accountInfo: row.account_info as unknown as ExternalAccount['accountInfo'],
  ...(row.customer_id === null ? {} : { customerId: row.customer_id, defaultUmaDepositAccount: row.default_uma_deposit_account }),
  ...(row.platform_account_id === null ? {} : { platformAccountId: row.platform_account_id }),
  ...(row.beneficiary_verification_status === null
    ? {}
    : { beneficiaryVerificationStatus: row.beneficiary_verification_status as ExternalAccount['beneficiaryVerificationStatus'] }),
  ...(row.beneficiary_verified_name === null ? {} : { beneficiaryVerifiedData: { fullName: row.beneficiary_verified_name } }),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

const accountNotFound = () => notFound('EXTERNAL_ACCOUNT_NOT_FOUND', 'No such external account.');

/** Registers an account for a customer (`customerId`) or for the platform; one transaction. */
async function registerExternalAccount(db: Db, platformId: string, input: CreateInput): Promise<ExternalAccount> {
  const { customerId, currency, accountInfo } = input;
  const makeDefault = input.defaultUmaDepositAccount === true;
  if (makeDefault && customerId === undefined) {
    throw invalidField('/defaultUmaDepositAccount', 'Only a customer account can be the default UMA deposit account; give customerId.');
  }
  if (!currencyMatches(accountInfo, currency)) {
    throw badRequest('CURRENCY_MISMATCH', `A ${accountInfo.accountType} needs currency ${expectedCurrency(accountInfo)}, not ${currency}.`, {
      accountType: accountInfo.accountType,
      currency,
    });
  }
  if (customerId !== undefined) {
    const customer = await findCustomerForAccounts(db, platformId, customerId);
    if (customer === undefined) throw notFound('CUSTOMER_NOT_FOUND', 'No such customer.');
    if (customer.is_deleted) throw gone('This customer was deleted.');
  }
  const check = sandboxNameCheck(accountInfo);
  if (check.kind === 'rejected') throw badRequest('INVALID_BANK_ACCOUNT', 'The bank reports this account as invalid or closed.');

  const at = now();
  if (makeDefault && customerId !== undefined) await clearDefaultUmaDepositAccount(db, platformId, customerId, at);
  const platformAccountId = input.platformAccountId ?? ('platformAccountId' in accountInfo ? accountInfo.platformAccountId : undefined);
  const result = await insertExternalAccount(db, {
    id: newId('ExternalAccount'),
    platform_id: platformId,
    customer_id: customerId ?? null,
    currency,
    // Sandbox: no review, usable at once.
    status: 'ACTIVE',
    account_type: accountInfo.accountType,
    account_info: accountInfo,
    primary_identifier: primaryIdentifier(accountInfo),
    platform_account_id: platformAccountId ?? null,
    default_uma_deposit_account: makeDefault,
    beneficiary_verification_status: check.kind === 'checked' ? check.status : null,
    beneficiary_verified_name: check.kind === 'checked' ? check.verifiedName : null,
    created_at: at,
    updated_at: at,
  });
  if (result.kind === 'duplicate') {
    throw conflict('EXTERNAL_ACCOUNT_ALREADY_EXISTS', 'This account is already registered for this owner; delete it first to register it again.');
  }
  // Only a concurrent registration of another default for the same customer gets here.
  if (result.kind === 'default-taken') throw conflict('CONFLICT', 'Another default UMA deposit account was registered at the same time; retry.');
  return toExternalAccount(result.row);
}

async function deleteAccount(db: Db, platformId: string, owner: Owner, id: string): Promise<void> {
  const row = await findExternalAccount(db, platformId, owner, id);
  if (row === undefined) throw accountNotFound();
  // Deleting an INACTIVE account again is a no-op that still answers 204.
  await deactivateExternalAccount(db, platformId, id, now());
}

export const externalAccountHandlers: AreaHandlers<
  | 'createCustomerExternalAccount'
  | 'listCustomerExternalAccounts'
  | 'getCustomerExternalAccount'
  | 'deleteCustomerExternalAccount'
  | 'createPlatformExternalAccount'
  | 'listPlatformExternalAccounts'
  | 'getPlatformExternalAccount'
  | 'deletePlatformExternalAccount'
> = {
  async createCustomerExternalAccount(req, ctx) {
    return { status: 201, body: await registerExternalAccount(ctx.db, ctx.principal.platformId, req.body) };
  },

  async listCustomerExternalAccounts(req, ctx) {
    const list = (filters: typeof req.query, page: PageRequest) => listExternalAccounts(ctx.db, ctx.principal.platformId, 'customer', filters, page);
    return { status: 200, body: await listPage(req.query, list, toExternalAccount) };
  },

  async getCustomerExternalAccount(req, ctx) {
    const row = await findExternalAccount(ctx.db, ctx.principal.platformId, 'customer', req.path.externalAccountId);
    if (row === undefined) throw accountNotFound();
    return { status: 200, body: toExternalAccount(row) };
  },

  async deleteCustomerExternalAccount(req, ctx) {
    await deleteAccount(ctx.db, ctx.principal.platformId, 'customer', req.path.externalAccountId);
    return { status: 204, body: undefined };
  },

  async createPlatformExternalAccount(req, ctx) {
    const { currency, platformAccountId, accountInfo } = req.body;
    return { status: 201, body: await registerExternalAccount(ctx.db, ctx.principal.platformId, { currency, platformAccountId, accountInfo }) };
  },

  async listPlatformExternalAccounts(req, ctx) {
    const list = (filters: typeof req.query, page: PageRequest) => listExternalAccounts(ctx.db, ctx.principal.platformId, 'platform', filters, page);
    return { status: 200, body: await listPage(req.query, list, toExternalAccount) };
  },

  async getPlatformExternalAccount(req, ctx) {
    const row = await findExternalAccount(ctx.db, ctx.principal.platformId, 'platform', req.path.externalAccountId);
    if (row === undefined) throw accountNotFound();
    return { status: 200, body: toExternalAccount(row) };
  },

  async deletePlatformExternalAccount(req, ctx) {
    await deleteAccount(ctx.db, ctx.principal.platformId, 'platform', req.path.externalAccountId);
    return { status: 204, body: undefined };
  },
};

