// Agent actions: transfers and quote executions an agent submits, decided by its policy (refused,
// run at once, or waiting for the platform) and by the platform (approve or reject, on the agent
// routes or on the action's transaction). Money moves only for approved actions, through the same
// services as the platform's own operations; the limits hold under concurrency on PostgreSQL.
import { expect } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, describeServer, itPostgres, itServer } from '../support/api.ts';
import { connectAgent } from '../support/agents.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, createExternalAccount, createIndividualCustomer, customerInternalAccount, fund } from '../support/factories.ts';

type Schemas = components['schemas'];
type Policy = Schemas['AgentPolicy'];
type Action = Schemas['AgentAction'];

const policy = (overrides: Partial<Policy> = {}): Policy => ({
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000 },
  ...overrides,
});

/** A customer with funded USD and EUR accounts and a USD bank account, and a connected agent for it. */
async function setup(overrides: Partial<Policy> = {}, funds = 100_000) {
  const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD', 'EUR'] });
  const usd = (await customerInternalAccount(customer.id, 'USD')).id;
  const eur = (await customerInternalAccount(customer.id, 'EUR')).id;
  if (funds > 0) await fund(usd, funds);
  const bank = (await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
  const { agentId, via } = await connectAgent(policy(overrides), customer.id);
  const transferOut = async (amount: number) => via.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank }, amount } });
  const transferOutAction = async (amount: number): Promise<Action> => {
    const { data: action, response, error } = await transferOut(amount);
    if (action === undefined) throw new Error(`transfer-out: ${response.status} ${JSON.stringify(error)}`);
    return action;
  };
  const action = async (actionId: string) => (await api.GET('/agents/{agentId}/actions/{actionId}', { params: { path: { agentId, actionId } } })).data;
  return { customerId: customer.id, usd, eur, bank, agentId, via, transferOut, transferOutAction, action };
}

const transaction = async (transactionId: string) => (await api.GET('/transactions/{transactionId}', { params: { path: { transactionId } } })).data;
const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code;

describeServer('agent actions within policy', () => {
  itServer('AUTO and within limits: APPROVED at once, the transfer sent through the same service, usage counted', async () => {
    const s = await setup();
    const action = await s.transferOutAction(10_000);
    expect(action).toMatchObject({ type: 'TRANSFER_OUT', status: 'APPROVED', agentId: s.agentId, customerId: s.customerId });
    expect(action.transferDetails).toEqual({ amount: 10_000, currency: 'USD', sourceAccountId: s.usd, destinationAccountId: s.bank });
    expect(action.transaction).toMatchObject({ id: action.transactionId, type: 'OUTGOING', agentId: s.agentId, agentActionId: action.id });
    expect(await balanceOf(s.usd)).toBe(90_000);
    expect((await s.via.GET('/agents/me/actions/{actionId}', { params: { path: { actionId: action.id } } })).data?.id).toBe(action.id);
    expect((await s.via.GET('/agents/me/actions', { params: { query: { status: 'APPROVED' } } })).data?.data.map((a) => a.id)).toEqual([action.id]);
    const { data: agent } = await api.GET('/agents/{agentId}', { params: { path: { agentId: s.agentId } } });
    expect(agent?.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 10_000, monthlySpend: 10_000 });
  });

  itServer('transfer-in and quote execution are actions too; a quote executes at its locked terms', async () => {
    const s = await setup();
    const transferIn = await s.via.POST('/agents/me/transfer-in', { body: { source: { accountId: s.bank }, destination: { accountId: s.usd }, amount: 2_000 } });
    expect(transferIn.data).toMatchObject({ type: 'TRANSFER_IN', status: 'APPROVED' });
    const { data: quote } = await s.via.POST('/agents/me/quotes', {
      body: { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: s.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000 },
    });
    const executed = await s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: quote?.id ?? '' } } });
    expect(executed.data).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED' });
    expect(executed.data?.quote).toMatchObject({ id: quote?.id, status: 'COMPLETED', totalSendingAmount: 5_000 });
    expect(await balanceOf(s.eur)).toBe(quote?.totalReceivingAmount);
    const again = await s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: quote?.id ?? '' } } });
    expect(again.response.status).toBe(409);
  });
});

describeServer('agent actions outside policy', () => {
  itServer('a breached limit or a restricted account is 403 AGENT_POLICY_VIOLATION and creates nothing', async () => {
    const s = await setup({ spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, dailyLimit: 8_000, dailyTransactionLimit: 2 } });
    for (const res of [await s.transferOut(5_001)]) {
      expect(res.response.status).toBe(403);
      expect(codeOf(res.error)).toBe('AGENT_POLICY_VIOLATION');
    }
    await s.transferOutAction(5_000);
    expect(codeOf((await s.transferOut(3_001)).error)).toBe('AGENT_POLICY_VIOLATION'); // 8_001 today
    await s.transferOutAction(3_000);
    expect(codeOf((await s.transferOut(1)).error)).toBe('AGENT_POLICY_VIOLATION'); // a third action today
    expect((await s.via.GET('/agents/me/actions')).data?.totalCount).toBe(2);
    expect(await balanceOf(s.usd)).toBe(92_000);

    const restricted = await setup({ accountRestrictions: { allowedAccountIds: [] } });
    expect(codeOf((await restricted.transferOut(100)).error)).toBe('AGENT_POLICY_VIOLATION');
  });

  itServer('APPROVAL_REQUIRED: PENDING_APPROVAL with its payment PENDING_APPROVAL, nothing moved; approve starts it', async () => {
    const s = await setup({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const pending = await s.transferOutAction(10_000);
    expect(pending.status).toBe('PENDING_APPROVAL');
    expect(pending.transaction).toBeUndefined();
    expect(await transaction(pending.transactionId ?? '')).toMatchObject({ status: 'PENDING_APPROVAL', agentActionId: pending.id, agentId: s.agentId });
    expect(await balanceOf(s.usd)).toBe(100_000);
    // Findable from the platform side.
    const { data: waiting } = await api.GET('/transactions', { params: { query: { customerId: s.customerId, status: 'PENDING_APPROVAL' } } });
    expect(waiting?.data.map((t) => t.id)).toEqual([pending.transactionId]);

    const { data: approved } = await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: pending.id } } });
    expect(approved).toMatchObject({ status: 'APPROVED', transaction: { id: pending.transactionId } });
    expect(approved?.transaction?.status).not.toBe('PENDING_APPROVAL');
    expect(await balanceOf(s.usd)).toBe(90_000);
    const twice = await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: pending.id } } });
    expect(twice.response.status).toBe(409);
    expect(codeOf(twice.error)).toBe('AGENT_ACTION_NOT_PENDING');
  });

  itServer('the transaction routes decide too: reject (reason kept, nothing moves), approve (the payment starts)', async () => {
    const s = await setup({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const first = await s.transferOutAction(1_000);
    const { data: rejected } = await api.POST('/transactions/{transactionId}/reject', { params: { path: { transactionId: first.transactionId ?? '' } }, body: { reason: 'Not this month' } });
    expect(rejected?.status).toBe('REJECTED');
    expect(await s.action(first.id)).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not this month' });
    const late = await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: first.transactionId ?? '' } } });
    expect(late.response.status).toBe(409);
    expect(codeOf(late.error)).toBe('TRANSACTION_NOT_PENDING_APPROVAL');

    const second = await s.transferOutAction(2_000);
    const { data: started } = await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: second.transactionId ?? '' } } });
    expect(started?.id).toBe(second.transactionId);
    expect(started?.status).not.toBe('PENDING_APPROVAL');
    expect((await s.action(second.id))?.status).toBe('APPROVED');
    expect(await balanceOf(s.usd)).toBe(98_000);
    // A transaction no agent action waits on is not the platform's to approve.
    const { data: own } = await api.GET('/transactions', { params: { query: { customerId: s.customerId, type: 'INCOMING' } } });
    expect((await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: own?.data[0]?.id ?? '' } } })).response.status).toBe(409);
  });

  itServer('above the approval threshold an AUTO action waits; approved when the balance is short, it FAILS, nothing moves', async () => {
    const s = await setup({ approvalThresholds: { currency: 'USD', amount: 1_000 } }, 5_000);
    expect((await s.transferOutAction(1_000)).status).toBe('APPROVED');
    const big = await s.transferOutAction(4_500);
    expect(big.status).toBe('PENDING_APPROVAL');
    const { data: failed } = await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: big.id } } });
    expect(failed).toMatchObject({ status: 'FAILED', transaction: { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' } });
    expect(await balanceOf(s.usd)).toBe(4_000);
  });

  itServer('a pending quote execution approved later executes the quote; rejected, the quote stays unexecuted', async () => {
    const s = await setup({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const quote = async () =>
      (
        await s.via.POST('/agents/me/quotes', {
          body: { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: s.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_000 },
        })
      ).data?.id ?? '';
    const [q1, q2] = [await quote(), await quote()];
    const a1 = (await s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: q1 } } })).data;
    const a2 = (await s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: q2 } } })).data;
    expect([a1?.status, a2?.status]).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL']);
    expect(a1?.quote?.status).toBe('PENDING');
    const { data: approved } = await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: a1?.id ?? '' } } });
    expect(approved?.quote).toMatchObject({ id: q1, status: 'COMPLETED' });
    await api.POST('/agents/{agentId}/actions/{actionId}/reject', { params: { path: { agentId: s.agentId, actionId: a2?.id ?? '' } } });
    expect((await s.action(a2?.id ?? ''))).toMatchObject({ status: 'REJECTED', rejectionReason: 'Rejected by the platform.', quote: { status: 'PENDING' } });
    expect(await balanceOf(s.usd)).toBe(97_000);
  });

  itServer('immediatelyExecute submits the execution through the policy: executed at once, or PENDING with its action; one pending execution per quote', async () => {
    const quoteBody = (s: Awaited<ReturnType<typeof setup>>, amount: number) => ({
      source: { sourceType: 'ACCOUNT' as const, accountId: s.usd },
      destination: { destinationType: 'ACCOUNT' as const, accountId: s.eur },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });
    const auto = await setup({ approvalThresholds: { currency: 'USD', amount: 5_000 } });
    const { data: executed } = await auto.via.POST('/agents/me/quotes', { body: quoteBody(auto, 4_000) });
    expect(executed?.status).toBe('COMPLETED');
    expect((await auto.action(executed?.agentActionId ?? ''))).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED' });
    const { data: waiting, response } = await auto.via.POST('/agents/me/quotes', { body: quoteBody(auto, 6_000) });
    expect(response.status).toBe(201);
    expect(waiting?.status).toBe('PENDING');
    expect((await auto.action(waiting?.agentActionId ?? ''))?.status).toBe('PENDING_APPROVAL');
    const again = await auto.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: waiting?.id ?? '' } } });
    expect(again.response.status).toBe(409);
    expect(codeOf(again.error)).toBe('CONFLICT');
    // Over a limit: no quote, no action.
    const before = (await auto.via.GET('/agents/me/actions')).data?.totalCount;
    const refused = await auto.via.POST('/agents/me/quotes', { body: quoteBody(auto, 60_000) });
    expect(refused.response.status).toBe(403);
    expect((await auto.via.GET('/agents/me/actions')).data?.totalCount).toBe(before);
    expect(await balanceOf(auto.usd)).toBe(96_000);
  });

  itServer("a deleted agent's pending actions can no longer be approved; another agent's actions are not found", async () => {
    const s = await setup({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const pending = await s.transferOutAction(1_000);
    const other = await setup();
    expect((await other.via.GET('/agents/me/actions/{actionId}', { params: { path: { actionId: pending.id } } })).response.status).toBe(404);
    expect((await api.GET('/agents/{agentId}/actions/{actionId}', { params: { path: { agentId: other.agentId, actionId: pending.id } } })).response.status).toBe(404);
    await api.DELETE('/agents/{agentId}', { params: { path: { agentId: s.agentId } } });
    expect((await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: pending.transactionId ?? '' } } })).response.status).toBe(409);
    expect((await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: pending.id } } })).response.status).toBe(404);
    expect(await balanceOf(s.usd)).toBe(100_000);
  });
});

describeServer('spending limits under concurrency', () => {
  itPostgres('20 concurrent actions against a daily limit: never more than it allows', async () => {
    const s = await setup({ spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 25_000 } });
    const results = await Promise.all(Array.from({ length: 20 }, () => s.transferOut(5_000)));
    const statuses = results.map((r) => r.response.status);
    expect(statuses.filter((st) => st === 201).length).toBe(5);
    expect(statuses.filter((st) => st === 403).length).toBe(15);
    const { data: agent } = await api.GET('/agents/{agentId}', { params: { path: { agentId: s.agentId } } });
    expect(agent?.usage.dailySpend).toBe(25_000);
    expect(await balanceOf(s.usd)).toBe(75_000);
  });
});

describeServer('Idempotency-Key on the agent\'s own submissions', () => {
  itServer('a replayed transfer-out is the stored action, one debit; another body with the key is 422', async () => {
    const s = await setup();
    const send = (amount: number) =>
      s.via.POST('/agents/me/transfer-out', { params: { header: { 'Idempotency-Key': `out-${s.agentId}` } }, body: { source: { accountId: s.usd }, destination: { accountId: s.bank }, amount } });
    const first = await send(1_000);
    const replay = await send(1_000);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    expect((await send(2_000)).response.status).toBe(422);
    expect(await balanceOf(s.usd)).toBe(99_000);
    const sendIn = (amount: number) =>
      s.via.POST('/agents/me/transfer-in', { params: { header: { 'Idempotency-Key': `in-${s.agentId}` } }, body: { source: { accountId: s.bank }, destination: { accountId: s.usd }, amount } });
    const firstIn = await sendIn(500);
    expect((await sendIn(500)).data).toEqual(firstIn.data);
    expect((await s.via.GET('/agents/me/actions')).data?.data.filter((a) => a.type === 'TRANSFER_IN').length).toBe(1);
  });

  itServer('a replayed quote execution is the stored action, executed once', async () => {
    const s = await setup();
    const { data: quote } = await s.via.POST('/agents/me/quotes', {
      body: { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: s.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_000 },
    });
    const execute = () => s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: quote?.id ?? '' }, header: { 'Idempotency-Key': `exec-${s.agentId}` } } });
    const first = await execute();
    const replay = await execute();
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data?.id).toBe(first.data?.id);
    expect(await balanceOf(s.usd)).toBe(98_000);
  });
});
