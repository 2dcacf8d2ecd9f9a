// Agent actions on a server of this file's own (PGlite, or a fresh PostgreSQL database on that
// target): every status change of an action reaches the platform as a signed agent-action-status
// webhook carrying the action, and a quote that expires while its execution waits for approval
// makes the approved action FAILED, with nothing moved.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { client, target } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { ownServer, ownWebhookReceiver } from '../support/own-server.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { advanceClock } from '../support/server-process.ts';

type Action = components['schemas']['AgentAction'];

describe.skipIf(target === 'prism')('agent actions over time', () => {
  const own = ownServer({ onTargetDatabase: true });
  const hooks = ownWebhookReceiver(own);

  /** A customer with a funded USD account, a EUR account, a bank account, and an agent whose actions all wait. */
  async function setup() {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD', 'EUR'] } });
    const customerId = customer?.id ?? '';
    const { data: accounts } = await own.via.GET('/customers/internal-accounts', { params: { query: { customerId } } });
    const usd = accounts?.data.find((a) => a.balance.currency.code === 'USD')?.id ?? '';
    const eur = accounts?.data.find((a) => a.balance.currency.code === 'EUR')?.id ?? '';
    await own.via.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd } }, body: { amount: 50_000 } });
    const { data: bank } = await own.via.POST('/customers/external-accounts', { body: { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    const policy = { permissions: ['CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'] as const, defaultExecutionMode: 'APPROVAL_REQUIRED' as const, spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } };
    const { data: created } = await own.via.POST('/agents', { body: { name: 'Waiter', customerId, policy: { ...policy, permissions: [...policy.permissions] } } });
    const redeemed = await fetch(`${own.server.baseUrl}/agents/device-codes/${created?.deviceCode.code ?? ''}/redeem`, { method: 'POST' });
    const { accessToken } = (await redeemed.json()) as { accessToken: string };
    return { agentId: created?.agent.id ?? '', usd, eur, bank: bank?.id ?? '', via: client({ accessToken }, own.server.baseUrl) };
  }

  /**
   * The agent-action-status events received for one action, in order of arrival; verified unless the
   * server's clock was moved (Standard Webhooks refuses timestamps 5 minutes off the receiver's).
   */
  async function eventsOf(actionId: string, count: number, verify = true): Promise<{ type: string; data: Action }[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const events = hooks.receiver.received
        .map((d) => (verify ? new Webhook(hooks.secret).verify(d.body, d.headers) : JSON.parse(d.body)) as { type: string; data: Action })
        .filter((e) => e.type.startsWith('AGENT_ACTION_') && e.data.id === actionId);
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // First: the next test moves the server's clock, and webhook timestamps follow it.
  it('every status change sends a signed agent-action-status webhook with the action after the change', async () => {
    const s = await setup();
    const send = async (amount: number) => (await s.via.POST('/agents/me/transfer-out', { body: { source: { accountId: s.usd }, destination: { accountId: s.bank }, amount } })).data;
    const approvedLater = await send(1_000);
    const rejectedLater = await send(2_000);
    await own.via.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: approvedLater?.id ?? '' } } });
    await own.via.POST('/agents/{agentId}/actions/{actionId}/reject', { params: { path: { agentId: s.agentId, actionId: rejectedLater?.id ?? '' } }, body: { reason: 'Too much' } });
    const approvedEvents = await eventsOf(approvedLater?.id ?? '', 2);
    // Sorted: deliveries may arrive out of order.
    expect(approvedEvents.map((e) => [e.type, e.data.status]).sort()).toEqual([
      ['AGENT_ACTION_APPROVED', 'APPROVED'],
      ['AGENT_ACTION_PENDING_APPROVAL', 'PENDING_APPROVAL'],
    ]);
    const rejectedEvents = await eventsOf(rejectedLater?.id ?? '', 2);
    expect(rejectedEvents.map((e) => [e.type, e.data.status, e.data.rejectionReason ?? '']).sort()).toEqual([
      ['AGENT_ACTION_PENDING_APPROVAL', 'PENDING_APPROVAL', ''],
      ['AGENT_ACTION_REJECTED', 'REJECTED', 'Too much'],
    ]);
    for (const delivery of hooks.receiver.received.filter((d) => d.body.includes('"AGENT_ACTION_'))) {
      expect(await validateAgainst('#/components/schemas/AgentActionStatusWebhookEvent', JSON.parse(delivery.body))).toEqual([]);
    }
  });

  it('a device code expires 15 minutes after it was issued: 400 DEVICE_CODE_EXPIRED', async () => {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    const policy = { permissions: ['VIEW_TRANSACTIONS' as const], defaultExecutionMode: 'AUTO' as const, spendingLimits: { currency: 'USD', perTransactionLimit: 100 } };
    const { data: created } = await own.via.POST('/agents', { body: { name: 'Late', customerId: customer?.id ?? '', policy } });
    await advanceClock(own.server.origin, 15 * 60_000 + 1_000);
    const late = await fetch(`${own.server.baseUrl}/agents/device-codes/${created?.deviceCode.code ?? ''}/redeem`, { method: 'POST' });
    expect(late.status).toBe(400);
    expect(((await late.json()) as { code: string }).code).toBe('DEVICE_CODE_EXPIRED');
  });

  it('a quote that expires while its execution waits: approved, the action FAILS (QUOTE_EXPIRED), nothing moves', async () => {
    const s = await setup();
    const { data: quote } = await s.via.POST('/agents/me/quotes', {
      body: { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: s.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_000 },
    });
    const { data: action } = await s.via.POST('/agents/me/quotes/{quoteId}/execute', { params: { path: { quoteId: quote?.id ?? '' } } });
    expect(action?.status).toBe('PENDING_APPROVAL');
    await advanceClock(own.server.origin, 6 * 60_000);
    const { data: failed } = await own.via.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: s.agentId, actionId: action?.id ?? '' } } });
    expect(failed).toMatchObject({ status: 'FAILED', transaction: { status: 'FAILED', failureReason: 'QUOTE_EXPIRED' } });
    const { data: usd } = await own.via.GET('/internal-accounts/{accountId}', { params: { path: { accountId: s.usd } } });
    expect(usd?.balance.amount).toBe(50_000);
    const events = await eventsOf(action?.id ?? '', 3, false);
    // Events may arrive out of order (approved and failed are sent together): the set is what counts.
    expect(events.map((e) => e.type).sort()).toEqual(['AGENT_ACTION_APPROVED', 'AGENT_ACTION_FAILED', 'AGENT_ACTION_PENDING_APPROVAL']);
  });
});
