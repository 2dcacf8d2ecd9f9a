// External accounts of customers and of the platform: register (with the sandbox beneficiary name
// check and the single default UMA deposit account per customer), list, get, delete (INACTIVE).
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { requireLiveCustomer } from '../customers/customers.service.ts';
import { badRequest, conflict, invalidField, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertInitial, assertTransition } from '../shared/state-machine.ts';
import { currencyMatches, expectedCurrency, primaryIdentifier, sandboxNameCheck, sealedTaxId } from './account-info.ts';
import { toExternalAccount } from './external-accounts.mapper.ts';
import {
  clearDefaultUmaDepositAccount,
  deactivateExternalAccount,
  findExternalAccount,
  insertExternalAccount,
  listExternalAccounts as listRows,
  listUnsealedTaxIds,
  setAccountInfo,
  type ExternalAccountFilters,
  type ExternalAccountRow,
  type Owner,
} from './external-accounts.repository.ts';

type Schemas = components['schemas'];
type ExternalAccount = Schemas['ExternalAccount'];

const accountNotFound = () => notFound('EXTERNAL_ACCOUNT_NOT_FOUND', 'No such external account.');

/** Registers an account for a customer (`customerId`) or, without one, for the platform. */
export async function registerExternalAccount(ctx: PlatformContext, input: Schemas['ExternalAccountCreateRequest']): Promise<ExternalAccount> {
  const { customerId, currency, accountInfo } = input;
  const makeDefault = input.defaultUmaDepositAccount === true;
  if (makeDefault && customerId === undefined) {
    throw invalidField('/defaultUmaDepositAccount', 'Only a customer account can be the default UMA deposit account; give customerId.');
  }
  if (!currencyMatches(accountInfo, currency)) {
    throw badRequest('CURRENCY_MISMATCH', `A ${accountInfo.accountType} needs currency ${expectedCurrency(accountInfo)}, not ${currency}.`, { accountType: accountInfo.accountType, currency });
  }
  // Locks the customer: registrations for one customer (and its default account) serialize.
  if (customerId !== undefined) await requireLiveCustomer(ctx, customerId);
  const check = sandboxNameCheck(accountInfo);
  if (check.kind === 'rejected') throw badRequest('INVALID_BANK_ACCOUNT', 'The bank reports this account as invalid or closed.');

  const at = ctx.clock.now();
  if (makeDefault && customerId !== undefined) await clearDefaultUmaDepositAccount(ctx.db, ctx.platformId, customerId, at);
  const platformAccountId = input.platformAccountId ?? ('platformAccountId' in accountInfo ? accountInfo.platformAccountId : undefined);
  // Sandbox: no review, usable at once.
  assertInitial('ExternalAccountStatus', 'ACTIVE');
  const result = await insertExternalAccount(ctx.db, {
    id: newId('ExternalAccount'),
    platform_id: ctx.platformId,
    customer_id: customerId ?? null,
    currency,
    status: 'ACTIVE',
    account_type: accountInfo.accountType,
    account_info: sealedTaxId(ctx.keys, accountInfo),
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
  return toExternalAccount(result.row, ctx.keys);
}

export async function listExternalAccounts(ctx: PlatformContext, owner: Owner, query: ExternalAccountFilters & { limit?: number; cursor?: string }): Promise<Page<ExternalAccount>> {
  return listPage(ctx.keys, query, (filters, page) => listRows(ctx.db, ctx.platformId, owner, filters, page), (row) => toExternalAccount(row, ctx.keys));
}

/** Any external account of the platform or its customers, as stored (for transfers). */
export async function requireExternalAccount(ctx: PlatformContext, id: string): Promise<ExternalAccountRow> {
  const row = await findExternalAccount(ctx.db, ctx.platformId, 'any', id);
  if (row === undefined) throw accountNotFound();
  return row;
}

export async function getExternalAccount(ctx: PlatformContext, owner: Owner, id: string): Promise<ExternalAccount> {
  const row = await findExternalAccount(ctx.db, ctx.platformId, owner, id);
  if (row === undefined) throw accountNotFound();
  return toExternalAccount(row, ctx.keys);
}

export async function deleteExternalAccount(ctx: PlatformContext, owner: Owner, id: string): Promise<void> {
  const row = await findExternalAccount(ctx.db, ctx.platformId, owner, id);
  if (row === undefined) throw accountNotFound();
  // Deleting an INACTIVE account again is a no-op that still answers 204.
  if (row.status === 'INACTIVE') return;
  assertTransition('ExternalAccountStatus', row.status, 'INACTIVE');
  if (!(await deactivateExternalAccount(ctx.db, ctx.platformId, id, row.status, ctx.clock.now()))) {
    throw conflict('CONFLICT', 'The external account changed meanwhile; retry.');
  }
}

/** Beneficiaries' tax ids stored before the server sealed them are sealed once, at start. */
export async function sealLegacyTaxIds(ctx: ServiceContext): Promise<number> {
  const legacy = await listUnsealedTaxIds(ctx.db);
  for (const a of legacy) await setAccountInfo(ctx.db, a.id, sealedTaxId(ctx.keys, a.account_info));
  return legacy.length;
}
