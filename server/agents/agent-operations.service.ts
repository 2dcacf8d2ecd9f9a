// What an agent does with its own bearer token (/agents/me): the platform's services, always
// scoped to the agent's customer. Anything of another customer is not found, as if it did not exist.
import type { components, operations } from '../../generated/openapi.js';
import type { RequestContext } from '../context.ts';
import { listExternalAccounts, registerExternalAccount } from '../external-accounts/external-accounts.service.ts';
import { listCustomerInternalAccounts } from '../internal-accounts/internal-accounts.service.ts';
import { invalidField, notFound } from '../shared/errors.ts';
import type { Page } from '../shared/page.ts';
import type { AgentPrincipal } from '../shared/principal.ts';
import { getTransaction, listTransactions } from '../transactions/transactions.service.ts';
import { getAgent } from './agents.service.ts';

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
