// What an agent submits: a transfer, or the execution of one of its quotes. Its policy refuses it
// (403), runs it at once (APPROVED, through the same services as the platform's operations) or
// records its payment as PENDING_APPROVAL for the platform to decide (agent-actions.service.ts). An
// agent's submissions are evaluated one at a time under its row lock, so the spending limits hold
// whatever the concurrency.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, RequestContext } from '../context/context.ts';
import { rateWindow, valueIn } from '../exchange-rates/sandbox-market.ts';
import { openPayment, openPaymentForApproval, type TransactionRow } from '../payments/payments.service.ts';
import { checkQuoteRequestIdFirst, executeOpenQuote, lockQuote, prepareQuoteExecution } from '../quotes/quote-execution.ts';
import { noteAgentAction } from '../quotes/quotes.repository.ts';
import { conflict, forbidden, notFound, unauthorized } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { prepareTransferIn, prepareTransferOut } from '../transactions/transfers.service.ts';
import type { SignatureHeaders } from '../wallet-auth/signed-retry.service.ts';
import { publish } from './agent-actions.service.ts';
import { countedSince, findAction, insertAction, type AgentActionRow } from './agent-actions.repository.ts';
import { callingAgent, requireCustomerAccount } from './agent-operations.service.ts';
import { applyPolicy } from './agent-policy.ts';
import { startOfDay, startOfMonth } from './agent-usage.ts';
import { findLiveAgentForUpdate, type AgentRow } from './agents.repository.ts';

type Schemas = components['schemas'];
type AgentAction = Schemas['AgentAction'];
type ActionStatus = Schemas['AgentActionStatus'];
type TransferRequest = Schemas['TransferOutRequest'] | Schemas['TransferInRequest'];

const COUNTED: readonly ActionStatus[] = ['PENDING_APPROVAL', 'APPROVED'];

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
  const agent = await findLiveAgentForUpdate(ctx.db, callingAgent(ctx).credentialId);
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
