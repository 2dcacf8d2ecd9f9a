// Deleting an agent leaves nothing waiting for it: its actions still PENDING_APPROVAL are rejected
// (a transfer waiting for approval becomes REJECTED, nothing moves), while what was approved before
// stays as it was. Deleting an agent's customer revokes its agents, and what they left waiting for
// approval is never approved, so none of that customer's money moves on their word.
import { expect } from 'vitest';
import { api, describeServer, itServer, raw } from '../support/api.ts';
import { connectAgent } from '../support/agents.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, createExternalAccount, createIndividualCustomer, customerInternalAccount, fund } from '../support/factories.ts';

describeServer('deleting an agent', () => {
  itServer('rejects its actions still waiting for approval; its approved ones are untouched', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD'] });
    const usd = (await customerInternalAccount(customer.id, 'USD')).id;
    await fund(usd, 100_000);
    const bank = (await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
    // Approval needed above 5,000: one transfer runs at once, two wait.
    const agent = await connectAgent(
      { permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO', approvalThresholds: { currency: 'USD', amount: 5_000 }, spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } },
      customer.id,
    );
    const submit = async (amount: number) => {
      const { data } = await agent.via.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank }, amount } });
      if (data === undefined) throw new Error('transfer-out refused');
      return data;
    };
    const approved = await submit(1_000);
    const waiting = [await submit(6_000), await submit(7_000)];
    expect(approved.status).toBe('APPROVED');
    expect(waiting.map((a) => a.status)).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL']);

    expect((await api.DELETE('/agents/{agentId}', { params: { path: { agentId: agent.agentId } } })).response.status).toBe(204);

    for (const action of waiting) {
      const { data: transaction } = await api.GET('/transactions/{transactionId}', { params: { path: { transactionId: action.transactionId ?? '' } } });
      expect(transaction).toMatchObject({ status: 'REJECTED', failureReason: 'PLATFORM_REJECTED', agentActionId: action.id });
      expect((await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: action.transactionId ?? '' } } })).response.status).toBe(409);
    }
    const { data: stillWaiting } = await api.GET('/transactions', { params: { query: { customerId: customer.id, status: 'PENDING_APPROVAL' } } });
    expect(stillWaiting?.data).toEqual([]);
    const { data: first } = await api.GET('/transactions/{transactionId}', { params: { path: { transactionId: approved.transactionId ?? '' } } });
    expect(first?.status).not.toBe('REJECTED');
    expect(await balanceOf(usd)).toBe(99_000);
  });
});

describeServer("deleting an agent's customer", () => {
  itServer('revokes its agents: their tokens answer 401 as revoked ones do, their device codes 404; nothing moves', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD'] });
    const usd = (await customerInternalAccount(customer.id, 'USD')).id;
    await fund(usd, 100_000);
    const bank = (await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
    const agent = await connectAgent({ permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO' }, customer.id);
    const transferOut = () => agent.via.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank }, amount: 1_000 } });
    expect((await transferOut()).response.status).toBe(201);
    const { data: waiting } = await api.POST('/agents', { body: { name: 'Not yet connected', customerId: customer.id, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } } } });

    expect((await api.DELETE('/customers/{customerId}', { params: { path: { customerId: customer.id } } })).response.status).toBe(200);

    const refused = await transferOut();
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(refused.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await agent.via.GET('/agents/me')).response.status).toBe(401);
    expect((await raw('POST', `/agents/device-codes/${waiting?.deviceCode.code ?? ''}/redeem`, { auth: false })).status).toBe(404);
    expect(await balanceOf(usd)).toBe(99_000);
  });
});

describeServer("deleting an agent's customer, with its actions waiting for approval", () => {
  itServer('they are never approved (409 by either route), so none of its money moves; they can still be rejected', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe', currencies: ['USD'] });
    const usd = (await customerInternalAccount(customer.id, 'USD')).id;
    await fund(usd, 100_000);
    const bank = (await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd() })).id;
    const agent = await connectAgent({ permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } }, customer.id);
    const submit = async (amount: number) => {
      const { data } = await agent.via.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank }, amount } });
      if (data === undefined) throw new Error('transfer-out refused');
      return data;
    };
    const [first, second, third] = [await submit(6_000), await submit(7_000), await submit(8_000)];
    expect([first?.status, second?.status, third?.status]).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL', 'PENDING_APPROVAL']);

    expect((await api.DELETE('/customers/{customerId}', { params: { path: { customerId: customer.id } } })).response.status).toBe(200);

    const byAction = await api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: agent.agentId, actionId: first?.id ?? '' } } });
    expect(byAction.response.status).toBe(409);
    expect(byAction.error).toMatchObject({ status: 409, code: 'AGENT_ACTION_NOT_PENDING' });
    const byTransaction = await api.POST('/transactions/{transactionId}/approve', { params: { path: { transactionId: second?.transactionId ?? '' } } });
    expect(byTransaction.response.status).toBe(409);
    expect(byTransaction.error).toMatchObject({ status: 409, code: 'TRANSACTION_NOT_PENDING_APPROVAL' });
    expect(await balanceOf(usd)).toBe(100_000);
    // Rejecting moves nothing, so the platform may still close them.
    const rejected = await api.POST('/agents/{agentId}/actions/{actionId}/reject', { params: { path: { agentId: agent.agentId, actionId: third?.id ?? '' } }, body: { reason: 'Customer gone.' } });
    expect(rejected.data?.status).toBe('REJECTED');
    const { data: transaction } = await api.GET('/transactions/{transactionId}', { params: { path: { transactionId: third?.transactionId ?? '' } } });
    expect(transaction?.status).toBe('REJECTED');
    expect(await balanceOf(usd)).toBe(100_000);
  });
});
