// What an agent does with its own bearer token (/agents/me): the platform's services, always
// scoped to the agent's customer. Anything of another customer is not found, as if it did not exist.
import type { components, operations } from '../../generated/openapi.js';
import type { RequestContext } from '../context/context.ts';
import { listExternalAccounts, registerExternalAccount } from '../external-accounts/external-accounts.service.ts';
import { canonicalAccountId, internalAccountNotFound, listCustomerInternalAccounts, requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { createQuote, getQuote } from '../quotes/quotes.service.ts';
import { requireLookupOf } from '../receiver/receiver.service.ts';
import { badRequest, forbidden, invalidField, notFound } from '../shared/errors.ts';
import type { Page } from '../shared/page.ts';
import type { AgentPrincipal } from '../shared/principal.ts';
import { getTransaction, listTransactions } from '../transactions/transactions.service.ts';
import { restrictionViolation } from './agent-policy.ts';
import { getAgent, requireAgent, requireAnyAccount } from './agents.service.ts';

type Schemas = components['schemas'];
type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

/** The calling agent; the bearer security stage made sure there is one. */
export function callingAgent(ctx: RequestContext): AgentPrincipal {
  if (ctx.principal.kind !== 'agent') throw new Error('an /agents/me operation without an agent principal');
  return ctx.principal;
}

export const getCurrentAgent = (ctx: RequestContext): Promise<Schemas['Agent']> => getAgent(ctx, callingAgent(ctx).credentialId);

export function listAgentInternalAccounts(ctx: RequestContext, query: Query<'listCurrentAgentInternalAccounts'>): Promise<Page<Schemas['InternalAccount']>> {
  return listCustomerInternalAccounts(ctx, { ...query, customerId: callingAgent(ctx).customerId });
}

export function listAgentExternalAccounts(ctx: RequestContext, query: Query<'listCurrentAgentExternalAccounts'>): Promise<Page<Schemas['ExternalAccount']>> {
  return listExternalAccounts(ctx, 'customer', { ...query, customerId: callingAgent(ctx).customerId });
}

export function registerAgentExternalAccount(ctx: RequestContext, body: Schemas['ExternalAccountCreateRequest']): Promise<Schemas['ExternalAccount']> {
  const { customerId } = callingAgent(ctx);
  if (body.customerId !== undefined && body.customerId !== customerId) throw invalidField('/customerId', "An agent registers accounts for its own customer only; omit customerId or send the agent's customer.");
  return registerExternalAccount(ctx, { ...body, customerId });
}

export function listAgentTransactions(ctx: RequestContext, query: Query<'listCurrentAgentTransactions'>): Promise<Page<Schemas['Transaction']>> {
  return listTransactions(ctx, { ...query, customerId: callingAgent(ctx).customerId });
}

export async function getAgentTransaction(ctx: RequestContext, transactionId: string): Promise<Schemas['Transaction']> {
  const transaction = await getTransaction(ctx, transactionId);
  if (transaction.customerId !== callingAgent(ctx).customerId) throw notFound('TRANSACTION_NOT_FOUND', 'No such transaction.');
  return transaction;
}

/** An account of the agent's customer, found the way the platform finds it; another customer's is not found. */
export async function requireCustomerAccount(ctx: RequestContext, accountId: string): Promise<void> {
  if ((await requireAnyAccount(ctx, accountId)).customer_id === callingAgent(ctx).customerId) return;
  throw accountId.startsWith('ExternalAccount:') ? notFound('EXTERNAL_ACCOUNT_NOT_FOUND', 'No such external account.') : internalAccountNotFound();
}

/** The policy's accountRestrictions, when it has any, list every account an action names. */
async function checkAllowedAccounts(ctx: RequestContext, accountIds: readonly string[]): Promise<void> {
  const agent = await requireAgent(ctx, callingAgent(ctx).credentialId);
  const violation = restrictionViolation(agent.policy, accountIds);
  if (violation !== undefined) throw forbidden('AGENT_POLICY_VIOLATION', violation);
}

/** Only internal accounts that are not Embedded Wallets pay at once (as for the platform's quotes). */
async function checkImmediateSource(ctx: RequestContext, source: Schemas['QuoteCreateRequest']['source']): Promise<void> {
  const wallet = source.sourceType === 'ACCOUNT' && !source.accountId.startsWith('ExternalAccount:') && (await requireInternalAccount(ctx, source.accountId)).type === 'EMBEDDED_WALLET';
  if (source.sourceType === 'REALTIME_FUNDING' || source.accountId.startsWith('ExternalAccount:') || wallet) {
    throw badRequest('IMMEDIATE_EXECUTION_NOT_SUPPORTED', 'immediatelyExecute needs an internal-account source that is not an Embedded Wallet: create the quote, then execute it.');
  }
}

/**
 * A quote from an account of the agent's customer, recorded as the agent's. Its execution is an
 * agent action, where the limits and approval apply: with `immediatelyExecute`, submitted here
 * (`submitExecution`), in the same database transaction as the quote.
 */
export async function createAgentQuote(
  ctx: RequestContext,
  body: Schemas['QuoteCreateRequest'],
  submitExecution: (quoteId: string) => Promise<unknown>,
): Promise<Schemas['Quote']> {
  const agent = callingAgent(ctx);
  if (body.immediatelyExecute === true && !agent.permissions.includes('EXECUTE_QUOTES')) {
    throw forbidden('AGENT_PERMISSION_DENIED', "This agent's policy does not grant EXECUTE_QUOTES, which immediatelyExecute needs.");
  }
  const accounts: string[] = [];
  let source = body.source;
  if (source.sourceType === 'REALTIME_FUNDING') {
    if (source.customerId !== undefined && source.customerId !== agent.customerId) throw invalidField('/source/customerId', "An agent quotes for its own customer only; omit customerId or send the agent's customer.");
    source = { ...source, customerId: agent.customerId };
  } else {
    await requireCustomerAccount(ctx, source.accountId);
    accounts.push(canonicalAccountId(source.accountId));
  }
  if (body.destination.destinationType === 'ACCOUNT') {
    await requireCustomerAccount(ctx, body.destination.accountId);
    accounts.push(canonicalAccountId(body.destination.accountId));
  } else if (body.lookupId !== undefined) {
    const lookup = await requireLookupOf(ctx, body.lookupId, 'UMA', body.destination.umaAddress);
    if (lookup.customer_id !== agent.customerId) throw notFound('LOOKUP_NOT_FOUND', `No lookup ${body.lookupId}, or it expired (lookups are valid 15 minutes).`);
  }
  await checkAllowedAccounts(ctx, accounts);
  if (body.immediatelyExecute === true) await checkImmediateSource(ctx, source);
  const quote = await createQuote(ctx, { ...body, source, immediatelyExecute: false }, agent.credentialId);
  if (body.immediatelyExecute !== true) return quote;
  await submitExecution(quote.id);
  return getQuote(ctx, quote.id, agent.credentialId);
}

export const getAgentQuote = (ctx: RequestContext, quoteId: string): Promise<Schemas['Quote']> => getQuote(ctx, quoteId, callingAgent(ctx).credentialId);
