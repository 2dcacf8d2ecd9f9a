// Agent actions: a quote execution or a transfer an agent submits (agent-submissions.service.ts),
// run at once or recorded with its payment PENDING_APPROVAL until the platform approves it (the
// payment starts as a new one would) or rejects it; and the actions as the platform and the agent
// read them. Every status change sends its webhook.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, RequestContext } from '../context/context.ts';
import { findPlatformCustomerId } from '../customers/customers.service.ts';
import { iso } from '../shared/clock.ts';
import { executeApprovedQuote, lockQuote, prepareQuoteExecution } from '../quotes/quote-execution.ts';
import { getQuote } from '../quotes/quotes.service.ts';
import { ApiError, conflict, notFound } from '../shared/errors.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertPath } from '../shared/state-machine.ts';
import { getTransaction } from '../transactions/transactions.service.ts';
import { failPayment, lockPayment, lockPaymentBalances, rejectPayment, startApprovedPayment, type PaymentDraft, type TransactionRow } from '../payments/payments.service.ts';
import { prepareTransferIn, prepareTransferOut } from '../transactions/transfers.service.ts';
import { emitEvent } from '../webhooks/webhooks.service.ts';
import { callingAgent } from './agent-operations.service.ts';
import { findAction, findActionForUpdate, findActionOfTransactionForUpdate, findPendingActionsOfAgentForUpdate, listActions, moveActionStatus, type AgentActionRow } from './agent-actions.repository.ts';
import { findAgent, isOfLiveCustomer } from './agents.repository.ts';
import { requireAgent } from './agents.service.ts';

type Schemas = components['schemas'];
type AgentAction = Schemas['AgentAction'];
type ActionStatus = Schemas['AgentActionStatus'];

const EVENT = {
  PENDING_APPROVAL: 'AGENT_ACTION_PENDING_APPROVAL',
  APPROVED: 'AGENT_ACTION_APPROVED',
  REJECTED: 'AGENT_ACTION_REJECTED',
  FAILED: 'AGENT_ACTION_FAILED',
} as const;

export const actionNotFound = () => notFound('AGENT_ACTION_NOT_FOUND', 'No such agent action.');

export async function toAgentAction(ctx: PlatformContext, row: AgentActionRow): Promise<AgentAction> {
  const started = row.transaction_id !== null && (row.status === 'APPROVED' || row.status === 'FAILED');
  const platformCustomerId = (await findPlatformCustomerId(ctx, row.customer_id)) ?? row.customer_id;
  return {
    id: row.id,
    agentId: row.agent_id,
    customerId: row.customer_id,
    platformCustomerId,
    status: row.status,
    type: row.type,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.quote_id === null ? {} : { quote: await getQuote(ctx, row.quote_id) }),
    ...(row.transfer === null ? {} : { transferDetails: row.transfer.details }),
    ...(row.transaction_id === null ? {} : { transactionId: row.transaction_id }),
    ...(started && row.transaction_id !== null ? { transaction: await getTransaction(ctx, row.transaction_id) } : {}),
    ...(row.rejection_reason === null ? {} : { rejectionReason: row.rejection_reason }),
  };
}

/** Sends the action's webhook (for `events`, its status by default) and answers the action as sent. */
export async function publish(ctx: PlatformContext, row: AgentActionRow, events: readonly ActionStatus[] = [row.status]): Promise<AgentAction> {
  const action = await toAgentAction(ctx, row);
  for (const status of events) await emitEvent(ctx, EVENT[status], action);
  return action;
}

/** Moves a locked PENDING_APPROVAL action on. */
async function moveAction(ctx: PlatformContext, action: AgentActionRow, to: ActionStatus, rejectionReason: string | null = null): Promise<AgentActionRow> {
  const moved = await moveActionStatus(ctx.db, action.id, 'PENDING_APPROVAL', { status: to, rejection_reason: rejectionReason, updated_at: ctx.clock.now() });
  if (moved === undefined) throw new Error(`agent action ${action.id} moved under its lock`);
  return moved;
}

/** Fails an approved action whose payment cannot start, with its payment. */
async function failApproved(ctx: PlatformContext, action: AgentActionRow, pending: TransactionRow, error: ApiError): Promise<AgentAction> {
  const reason = error.code === 'INSUFFICIENT_FUNDS' ? 'INSUFFICIENT_FUNDS' : error.code === 'QUOTE_NOT_PENDING' ? 'QUOTE_EXPIRED' : 'QUOTE_EXECUTION_FAILED';
  await failPayment(ctx, pending, reason);
  assertPath('AgentActionStatus', ['PENDING_APPROVAL', 'APPROVED', 'FAILED']);
  return publish(ctx, await moveAction(ctx, action, 'FAILED'), ['APPROVED', 'FAILED']);
}

/** Starts the payment of a locked PENDING_APPROVAL action: APPROVED, or FAILED when it cannot start. */
async function approveAction(ctx: PlatformContext, action: AgentActionRow): Promise<AgentAction> {
  const pending = action.transaction_id === null ? undefined : await lockPayment(ctx, action.transaction_id);
  if (pending === undefined || pending.status !== 'PENDING_APPROVAL') throw new Error(`agent action ${action.id} without its waiting payment`);
  const quote = action.quote_id === null ? undefined : await lockQuote(ctx, action.quote_id);
  // The balance checked below decides between APPROVED and FAILED, so it is read under the lock
  // the payment's debit takes: unlocked, a payment racing in between passed the check and then
  // had the debit refused, a 400 that left the action PENDING_APPROVAL instead of FAILED.
  await lockPaymentBalances(ctx, pending);
  let prepared: PaymentDraft;
  try {
    if (quote !== undefined) prepared = await prepareQuoteExecution(ctx, quote, 'VERIFIED');
    else if (action.transfer !== null && action.type === 'TRANSFER_OUT') prepared = await prepareTransferOut(ctx, action.transfer.request as Schemas['TransferOutRequest']);
    else if (action.transfer !== null) prepared = await prepareTransferIn(ctx, action.transfer.request as Schemas['TransferInRequest']);
    else throw new Error(`agent action ${action.id} moves nothing`);
  } catch (err) {
    // What the platform approved can no longer run (the quote expired, the balance is short): FAILED.
    if (err instanceof ApiError && err.status < 500) return failApproved(ctx, action, pending, err);
    throw err;
  }
  if (quote !== undefined) await executeApprovedQuote(ctx, quote, pending, prepared);
  else await startApprovedPayment(ctx, pending, prepared);
  return publish(ctx, await moveAction(ctx, action, 'APPROVED'));
}

async function rejectAction(ctx: PlatformContext, action: AgentActionRow, reason: string | undefined): Promise<AgentAction> {
  const pending = action.transaction_id === null ? undefined : await lockPayment(ctx, action.transaction_id);
  if (pending !== undefined && pending.status === 'PENDING_APPROVAL') await rejectPayment(ctx, pending);
  return publish(ctx, await moveAction(ctx, action, 'REJECTED', reason ?? 'Rejected by the platform.'));
}

/**
 * A deleted agent's actions still waiting are rejected, so none waits for an approval that can
 * no longer come: each sends AGENT_ACTION_REJECTED, and a waiting transfer becomes REJECTED.
 */
export async function rejectPendingActionsOfDeletedAgent(ctx: PlatformContext, agentId: string): Promise<void> {
  for (const action of await findPendingActionsOfAgentForUpdate(ctx.db, ctx.platformId, agentId)) await rejectAction(ctx, action, 'The agent was deleted.');
}

/** The platform's agent-management routes: the action of a live agent, locked, still PENDING_APPROVAL. */
async function pendingActionOf(ctx: PlatformContext, agentId: string, actionId: string): Promise<AgentActionRow> {
  const agent = await requireAgent(ctx, agentId);
  const action = await findActionForUpdate(ctx.db, ctx.platformId, actionId, agent.id);
  if (action === undefined) throw actionNotFound();
  if (action.status !== 'PENDING_APPROVAL') throw conflict('AGENT_ACTION_NOT_PENDING', `Agent action ${action.id} is ${action.status}; only PENDING_APPROVAL actions are approved or rejected.`);
  return action;
}

/**
 * An action of an agent whose customer was deleted is never approved: the agent acts for no one,
 * and approving would move the deleted customer's money on its word. It can still be rejected.
 */
async function refuseApprovalForDeletedCustomer(ctx: PlatformContext, action: AgentActionRow, refusal: (message: string) => ApiError): Promise<void> {
  if (!(await isOfLiveCustomer(ctx.db, action.agent_id))) throw refusal(`Agent action ${action.id} can no longer be approved: its agent's customer was deleted. Reject it instead.`);
}

export async function approveAgentAction(ctx: PlatformContext, agentId: string, actionId: string): Promise<AgentAction> {
  const action = await pendingActionOf(ctx, agentId, actionId);
  await refuseApprovalForDeletedCustomer(ctx, action, (message) => conflict('AGENT_ACTION_NOT_PENDING', message));
  return approveAction(ctx, action);
}

export async function rejectAgentAction(ctx: PlatformContext, agentId: string, actionId: string, reason: string | undefined): Promise<AgentAction> {
  return rejectAction(ctx, await pendingActionOf(ctx, agentId, actionId), reason);
}

/** The transaction routes: the payment of a PENDING_APPROVAL action of a live agent. */
async function pendingActionOfTransaction(ctx: PlatformContext, transactionId: string): Promise<AgentActionRow> {
  const transaction = await getTransaction(ctx, transactionId);
  const action = await findActionOfTransactionForUpdate(ctx.db, ctx.platformId, transaction.id);
  const live = action !== undefined && (await findAgent(ctx.db, ctx.platformId, action.agent_id)) !== undefined;
  if (action === undefined || action.status !== 'PENDING_APPROVAL' || !live) {
    throw conflict('TRANSACTION_NOT_PENDING_APPROVAL', `Transaction ${transaction.id} is ${transaction.status} and waits for no approval.`, { status: transaction.status });
  }
  return action;
}

export async function approveTransaction(ctx: PlatformContext, transactionId: string): Promise<Schemas['Transaction']> {
  const action = await pendingActionOfTransaction(ctx, transactionId);
  await refuseApprovalForDeletedCustomer(ctx, action, (message) => conflict('TRANSACTION_NOT_PENDING_APPROVAL', message, { status: 'PENDING_APPROVAL' }));
  await approveAction(ctx, action);
  return getTransaction(ctx, transactionId);
}

export async function rejectTransaction(ctx: PlatformContext, transactionId: string, reason: string | undefined): Promise<Schemas['Transaction']> {
  await rejectAction(ctx, await pendingActionOfTransaction(ctx, transactionId), reason);
  return getTransaction(ctx, transactionId);
}

type ActionQuery = { status?: ActionStatus; type?: AgentActionRow['type']; limit?: number; cursor?: string };

async function listOf(ctx: PlatformContext, agentId: string, query: ActionQuery): Promise<Page<AgentAction>> {
  const page = await listPage(ctx.keys, query, (filters, request) => listActions(ctx.db, ctx.platformId, { ...filters, agentId }, request), (row) => row);
  return { ...page, data: await Promise.all(page.data.map((row) => toAgentAction(ctx, row))) };
}

export async function listAgentActions(ctx: PlatformContext, agentId: string, query: ActionQuery): Promise<Page<AgentAction>> {
  return listOf(ctx, (await requireAgent(ctx, agentId)).id, query);
}

export async function getAgentAction(ctx: PlatformContext, agentId: string, actionId: string): Promise<AgentAction> {
  const row = await findAction(ctx.db, ctx.platformId, actionId, (await requireAgent(ctx, agentId)).id);
  if (row === undefined) throw actionNotFound();
  return toAgentAction(ctx, row);
}

export const listOwnActions = (ctx: RequestContext, query: ActionQuery): Promise<Page<AgentAction>> => listOf(ctx, callingAgent(ctx).credentialId, query);

export async function getOwnAction(ctx: RequestContext, actionId: string): Promise<AgentAction> {
  const row = await findAction(ctx.db, ctx.platformId, actionId, callingAgent(ctx).credentialId);
  if (row === undefined) throw actionNotFound();
  return toAgentAction(ctx, row);
}

