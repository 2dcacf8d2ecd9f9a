// Agent actions: a quote execution or a transfer an agent submits. Its policy refuses it (403), runs
// it at once (APPROVED, through the same services as the platform's operations) or records its
// payment as PENDING_APPROVAL until the platform approves (the payment starts as a new one would)
// or rejects it. An agent's submissions are evaluated one at a time under its row lock, so the
// spending limits hold whatever the concurrency. Every status change sends its webhook.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, RequestContext } from '../context.ts';
import { findPlatformCustomerId } from '../customers/customers.service.ts';
import { iso } from '../shared/clock.ts';
import { rateWindow, valueIn } from '../exchange-rates/sandbox-market.ts';
import { checkQuoteRequestIdFirst, executeApprovedQuote, executeOpenQuote, lockQuote, prepareQuoteExecution } from '../quotes/quote-execution.ts';
import { getQuote } from '../quotes/quotes.service.ts';
import { noteAgentAction } from '../quotes/quotes.repository.ts';
import { ApiError, conflict, forbidden, notFound, unauthorized } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertPath } from '../shared/state-machine.ts';
import { getTransaction } from '../transactions/transactions.service.ts';
import {
  failPayment,
  lockPayment,
  lockPaymentBalances,
  openPayment,
  openPaymentForApproval,
  rejectPayment,
  startApprovedPayment,
  type PaymentDraft,
  type TransactionRow,
} from '../payments/payments.service.ts';
import { prepareTransferIn, prepareTransferOut } from '../transactions/transfers.service.ts';
import type { SignatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { emitEvent } from '../webhooks/webhooks.service.ts';
import { applyPolicy } from './agent-policy.ts';
import { startOfDay, startOfMonth } from './agent-usage.ts';
import { callingAgent, requireCustomerAccount } from './agent-operations.service.ts';
import { countedSince, findAction, findActionForUpdate, findActionOfTransactionForUpdate, findPendingActionsOfAgentForUpdate, insertAction, listActions, moveActionStatus, type AgentActionRow } from './agent-actions.repository.ts';
import { findAgent, findAgentForUpdate, type AgentRow } from './agents.repository.ts';
import { requireAgent } from './agents.service.ts';

type Schemas = components['schemas'];
type AgentAction = Schemas['AgentAction'];
type ActionStatus = Schemas['AgentActionStatus'];
type TransferRequest = Schemas['TransferOutRequest'] | Schemas['TransferInRequest'];

const COUNTED: readonly ActionStatus[] = ['PENDING_APPROVAL', 'APPROVED'];
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
async function publish(ctx: PlatformContext, row: AgentActionRow, events: readonly ActionStatus[] = [row.status]): Promise<AgentAction> {
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

interface Decision {
  status: 'APPROVED' | 'PENDING_APPROVAL';
  /** The amount in the spending limits' currency, as weighed. */
  counted: number;
}

/** The policy's verdict on an action of `amount` (in `currency`) naming `accounts`; 403 when it breaks the policy. */
async function decide(ctx: PlatformContext, agent: AgentRow, accounts: readonly string[], amount: number, currency: string): Promise<Decision> {
  const now = ctx.clock.now();
  const window = rateWindow(now);
  const { policy } = agent;
  const inLimitsCurrency = valueIn(window, amount, currency, policy.spendingLimits.currency);
  const inThresholdCurrency = policy.approvalThresholds === undefined ? 0 : valueIn(window, amount, currency, policy.approvalThresholds.currency);
  const today = await countedSince(ctx.db, agent.id, startOfDay(now), COUNTED);
  const thisMonth = await countedSince(ctx.db, agent.id, startOfMonth(now), COUNTED);
  const verdict = applyPolicy(policy, { accounts, inLimitsCurrency, inThresholdCurrency, today, thisMonth });
  if ('violation' in verdict) throw forbidden('AGENT_POLICY_VIOLATION', verdict.violation);
  return { status: verdict.decision, counted: inLimitsCurrency };
}

/** The calling agent, locked: its submissions are evaluated one at a time. */
async function lockCallingAgent(ctx: RequestContext): Promise<AgentRow> {
  const agent = await findAgentForUpdate(ctx.db, callingAgent(ctx).credentialId);
  if (agent === undefined) throw unauthorized('Invalid or revoked access token', 'UNAUTHORIZED', 'Bearer');
  return agent;
}

async function record(ctx: PlatformContext, agent: AgentRow, fields: Pick<AgentActionRow, 'id' | 'type' | 'status' | 'quote_id' | 'transaction_id'> & { transfer: AgentActionRow['transfer']; counted: number }): Promise<AgentActionRow> {
  const at = ctx.clock.now();
  return insertAction(ctx.db, {
    id: fields.id,
    platform_id: ctx.platformId,
    agent_id: agent.id,
    customer_id: agent.customer_id,
    type: fields.type,
    status: fields.status,
    quote_id: fields.quote_id,
    transfer: fields.transfer === null ? null : JSON.stringify(fields.transfer),
    transaction_id: fields.transaction_id,
    counted_amount: fields.counted,
    rejection_reason: null,
    created_at: at,
    updated_at: at,
  });
}

/** `POST /agents/me/transfer-out` and `/transfer-in`: a transfer between two accounts of the agent's customer. */
export async function submitTransfer(ctx: RequestContext, type: 'TRANSFER_OUT' | 'TRANSFER_IN', request: TransferRequest): Promise<AgentAction> {
  const agent = await lockCallingAgent(ctx);
  await requireCustomerAccount(ctx, request.source.accountId);
  await requireCustomerAccount(ctx, request.destination.accountId);
  // Validated in full first (accounts, pair, rail); the balance only matters for a transfer-out sent now.
  const draftOf = (checkBalance: boolean) =>
    type === 'TRANSFER_OUT' ? prepareTransferOut(ctx, request as Schemas['TransferOutRequest'], { checkBalance }) : prepareTransferIn(ctx, request as Schemas['TransferInRequest']);
  const unchecked = await draftOf(false);
  const { currency, amount } = unchecked.transaction;
  const decision = await decide(ctx, agent, [request.source.accountId, request.destination.accountId], amount, currency);
  const id = newId('AgentAction');
  const initiator = { agentId: agent.id, agentActionId: id };
  const sentNow = decision.status === 'APPROVED' && type === 'TRANSFER_OUT' ? await draftOf(true) : unchecked;
  const transaction = decision.status === 'APPROVED' ? await openPayment(ctx, sentNow, initiator) : await openPaymentForApproval(ctx, unchecked, initiator);
  const details = { amount, currency, sourceAccountId: request.source.accountId, destinationAccountId: request.destination.accountId };
  return publish(ctx, await record(ctx, agent, { id, type, status: decision.status, quote_id: null, transaction_id: transaction.id, transfer: { details, request }, counted: decision.counted }));
}

/** `POST /agents/me/quotes/{quoteId}/execute`: one of the agent's quotes, signed by the wallet's owner when its source is a wallet. */
export async function submitQuoteExecution(ctx: RequestContext, quoteId: string, signature: SignatureHeaders): Promise<AgentAction> {
  const agent = await lockCallingAgent(ctx);
  const quote = await lockQuote(ctx, quoteId);
  if (quote.agent_id !== agent.id) throw notFound('QUOTE_NOT_FOUND', 'No such quote.');
  await checkQuoteRequestIdFirst(ctx, quote, signature);
  const earlier = quote.agent_action_id === null ? undefined : await findAction(ctx.db, ctx.platformId, quote.agent_action_id, agent.id);
  if (earlier?.status === 'PENDING_APPROVAL') throw conflict('CONFLICT', `Quote ${quote.id} already waits for approval in agent action ${earlier.id}.`, { agentActionId: earlier.id });
  const accounts = [quote.source_account_id, quote.destination_account_id].filter((id): id is string => id !== null);
  const decision = await decide(ctx, agent, accounts, quote.total_sending_amount, quote.sending_currency);
  const id = newId('AgentAction');
  const initiator = { agentId: agent.id, agentActionId: id };
  let transaction: TransactionRow;
  if (decision.status === 'APPROVED') {
    ({ transaction } = await executeOpenQuote(ctx, quote, signature, initiator));
  } else {
    // Signed now: the owner authorizes the payment when the agent submits it, whoever approves it later.
    transaction = await openPaymentForApproval(ctx, await prepareQuoteExecution(ctx, quote, signature, { checkBalance: false }), initiator);
  }
  const row = await record(ctx, agent, { id, type: 'EXECUTE_QUOTE', status: decision.status, quote_id: quote.id, transaction_id: transaction.id, transfer: null, counted: decision.counted });
  // After the action's row exists (the quote refers to it), before the action is shown with its quote.
  await noteAgentAction(ctx.db, quote.id, id);
  return publish(ctx, row);
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

export async function approveAgentAction(ctx: PlatformContext, agentId: string, actionId: string): Promise<AgentAction> {
  return approveAction(ctx, await pendingActionOf(ctx, agentId, actionId));
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
  await approveAction(ctx, await pendingActionOfTransaction(ctx, transactionId));
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

