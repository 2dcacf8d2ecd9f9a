// Internal accounts: list the customers' and the platform's, get one. Accounts are opened by the
// service (customer creation, platform bootstrap), never through the API. Update and export of
// Embedded Wallets need wallet sessions and come with that issue.
import type { components } from '../../generated/openapi.js';
import { currency } from '../currencies.ts';
import { notFound } from '../http/errors.ts';
import { iso } from '../http/ids.ts';
import { notImplemented, type AreaHandlers } from '../http/operations.ts';
import { listPage, type PageRequest } from '../http/pagination.ts';
import { fundingPaymentInstructions } from './funding-instructions.ts';
import { findInternalAccount, listInternalAccounts, type InternalAccountRow } from './internal-accounts.repository.ts';

type InternalAccount = components['schemas']['InternalAccount'];

export const toInternalAccount = (row: InternalAccountRow): InternalAccount => ({
  id: row.id,
  ...(row.customer_id === null ? {} : { customerId: row.customer_id }),
  type: row.type as InternalAccount['type'],
  status: row.status as InternalAccount['status'],
  balance: { amount: row.balance, currency: currency(row.currency) },
  fundingPaymentInstructions: fundingPaymentInstructions(row),
  ...(row.type === 'EMBEDDED_WALLET' ? { privateEnabled: row.private_enabled ?? false } : {}),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const internalAccountNotFound = () => notFound('INTERNAL_ACCOUNT_NOT_FOUND', 'No such internal account.');

export const internalAccountHandlers: AreaHandlers<
  'listCustomerInternalAccounts' | 'listPlatformInternalAccounts' | 'getInternalAccount' | 'updateInternalAccount' | 'exportInternalAccount'
> = {
  async listCustomerInternalAccounts(req, ctx) {
    const list = (f: typeof req.query, page: PageRequest) =>
      listInternalAccounts(ctx.db, ctx.principal.platformId, { owner: { customerId: f.customerId }, currency: f.currency, type: f.type }, page);
    return { status: 200, body: await listPage(req.query, list, toInternalAccount) };
  },

  async listPlatformInternalAccounts(req, ctx) {
    const list = (f: typeof req.query, page: PageRequest) => listInternalAccounts(ctx.db, ctx.principal.platformId, { owner: null, currency: f.currency, type: f.type }, page);
    return { status: 200, body: await listPage(req.query, list, toInternalAccount) };
  },

  async getInternalAccount(req, ctx) {
    const row = await findInternalAccount(ctx.db, ctx.principal.platformId, req.path.accountId);
    if (row === undefined) throw internalAccountNotFound();
    return { status: 200, body: toInternalAccount(row) };
  },

  updateInternalAccount: notImplemented,
  exportInternalAccount: notImplemented,
};
