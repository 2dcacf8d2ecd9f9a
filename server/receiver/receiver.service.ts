// Receiver lookups: what an UMA address or an external account can be paid in, and what it asks
// about the sender. A lookup is kept 15 minutes; a quote to an UMA address needs one, and a quote
// naming one must carry every field it lists.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context/context.ts';
import { findCustomerByUmaAddress } from '../customers/customers.repository.ts';
import { requireCustomer } from '../customers/customers.service.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import type { ExternalAccountRow } from '../external-accounts/external-accounts.repository.ts';
import { addMs } from '../shared/clock.ts';
import { badRequest, invalidField, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { canonicalUmaAddress } from '../shared/uma-address.ts';
import { lookupSandboxUma } from '../simulation/uma-addresses.ts';
import { toExternalAccountLookup, toUmaLookup } from './receiver.mapper.ts';
import { findLookup, insertLookup, type LookupRow } from './receiver.repository.ts';

type Schemas = components['schemas'];
type PayerDataField = Schemas['PayerDataField'];

export const LOOKUP_LIFETIME_MS = 15 * 60_000;

/** Receivers at other domains in the sandbox: reachable, paid in USD, asking for the sender's name. */
const ELSEWHERE = { currencies: ['USD'], requiredPayerData: [{ name: 'FULL_NAME', mandatory: true }] } as const;
/** Bank rails ask for the sender's name (travel rule); wallets ask nothing. */
const bankPayerData = (account: ExternalAccountRow): PayerDataField[] => (account.account_type === 'SPARK_WALLET' ? [] : [{ name: 'FULL_NAME', mandatory: true }]);

/** The sending customer, named by id or by UMA address; 404 CUSTOMER_NOT_FOUND when the platform has none such. */
async function senderOf(ctx: PlatformContext, query: { senderUmaAddress?: string; customerId?: string }): Promise<string | null> {
  if (query.customerId !== undefined) return (await requireCustomer(ctx, query.customerId)).id;
  if (query.senderUmaAddress === undefined) return null;
  const customer = await findCustomerByUmaAddress(ctx.db, ctx.platformId, canonicalUmaAddress(query.senderUmaAddress));
  if (customer === undefined) throw notFound('CUSTOMER_NOT_FOUND', `No customer of this platform has the UMA address ${query.senderUmaAddress}.`);
  return customer.id;
}

export async function lookupUmaReceiver(ctx: PlatformContext, address: string, query: { senderUmaAddress?: string; customerId?: string }): Promise<Schemas['UmaReceiverLookup']> {
  if ((query.senderUmaAddress === undefined) === (query.customerId === undefined)) {
    // Named like the validator's query errors, so a client shows it on the field as any other.
    throw invalidField(query.customerId === undefined ? 'query.senderUmaAddress' : 'query.customerId', 'Give exactly one of senderUmaAddress and customerId to name the sender.');
  }
  const sender = await senderOf(ctx, query);
  const found = lookupSandboxUma(address);
  if (found.kind === 'NOT_FOUND') throw notFound('UMA_NOT_FOUND', `No UMA address ${address} exists.`);
  const receiver = found.kind === 'DESTINATION' ? { currencies: [found.currency], requiredPayerData: found.requiredPayerData } : ELSEWHERE;
  const row = await record(ctx, 'UMA', canonicalUmaAddress(address), sender, receiver.currencies, receiver.requiredPayerData);
  return toUmaLookup(row);
}

export async function lookupExternalAccountReceiver(ctx: PlatformContext, accountId: string, query: { senderUmaAddress?: string; customerId?: string }): Promise<Schemas['ExternalAccountReceiverLookup']> {
  const account = await requireExternalAccount(ctx, accountId);
  const sender = await senderOf(ctx, query);
  const row = await record(ctx, 'EXTERNAL_ACCOUNT', account.id, sender, [account.currency], bankPayerData(account));
  return toExternalAccountLookup(row);
}

async function record(ctx: PlatformContext, kind: LookupRow['kind'], target: string, customerId: string | null, currencies: readonly string[], fields: readonly PayerDataField[]): Promise<LookupRow> {
  const at = ctx.clock.now();
  return insertLookup(ctx.db, {
    id: newId('Lookup'),
    platform_id: ctx.platformId,
    customer_id: customerId,
    kind,
    target,
    currencies: [...currencies],
    required_fields: [...fields],
    expires_at: addMs(at, LOOKUP_LIFETIME_MS),
    created_at: at,
  });
}

/** A live lookup of this receiver, for a quote; unknown, expired or of another receiver is 404. */
export async function requireLookupOf(ctx: PlatformContext, lookupId: string, kind: LookupRow['kind'], target: string): Promise<LookupRow> {
  const row = await findLookup(ctx.db, ctx.platformId, lookupId);
  const wanted = kind === 'UMA' ? canonicalUmaAddress(target) : target;
  if (row === undefined || row.expires_at.getTime() <= ctx.clock.now().getTime()) throw notFound('LOOKUP_NOT_FOUND', `No lookup ${lookupId}, or it expired (lookups are valid 15 minutes).`);
  if (row.kind !== kind || row.target !== wanted) throw invalidField('/lookupId', `Lookup ${lookupId} is of another receiver than this quote's destination.`);
  return row;
}

/**
 * The fields of the lookup that `info` lacks; `400 MISSING_PAYER_DATA` names them. Every listed
 * field is required, `mandatory` or not: the product specification asks for "every field the
 * destination listed in requiredPayerDataFields".
 */
export function checkPayerData(lookup: LookupRow, info: Record<string, string> | undefined): void {
  const missing = lookup.required_fields.filter((f) => (info?.[f.name] ?? '') === '').map((f) => f.name);
  if (missing.length > 0) {
    throw badRequest('MISSING_PAYER_DATA', `senderCustomerInfo lacks what the receiver requires: ${missing.join(', ')}.`, { missingFields: missing });
  }
}
