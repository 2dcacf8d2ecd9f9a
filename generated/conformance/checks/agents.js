import { accountInfo, accountOf, agent, balanceOf, externalAccount, fund, individual } from "../fixtures.js";
import { check, enc, ids } from "./define.js";
const GUIDE = 'agents guide';
const policy = (overrides = {}) => ({
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000 },
    ...overrides,
});
/** An agent, not connected: what POST /agents answered; deleted when the run ends. */
async function unconnected(t, customerId, overrides = {}) {
    const created = t.expect(await t.call('POST', '/agents', { body: { name: t.uid(), customerId, policy: policy(overrides) }, key: t.key() }), 201, 'createAgent answers 201');
    t.cleanup(`deleting the agent ${created.agent.id}`, () => t.http.send('DELETE', `/agents/${enc(created.agent.id)}`));
    return created;
}
const redeem = (t, code) => t.call('POST', `/agents/device-codes/${enc(code)}/redeem`, { as: 'anonymous' });
const as = (a) => ({ as: { bearer: a.accessToken } });
/** A customer with funded USD, an EUR account and a USD bank account, and a connected agent for it. */
async function setup(t, overrides = {}, funds = 100_000) {
    const customer = await individual(t, { currencies: ['USD', 'EUR'] });
    const usd = (await accountOf(t, customer.id, 'USD')).id;
    const eur = (await accountOf(t, customer.id, 'EUR')).id;
    if (funds > 0)
        await fund(t, usd, funds);
    const bank = (await externalAccount(t, customer.id, 'USD', accountInfo.usd())).id;
    const connected = await agent(t, policy(overrides), customer.id);
    const transferOut = (amount) => t.call('POST', '/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank }, amount }, key: t.key(), ...as(connected) });
    const action = async (amount) => t.expect(await transferOut(amount), 201, "an agent's transfer-out is answered 201 with its action (createCurrentAgentTransferOut)");
    return { customerId: customer.id, usd, eur, bank, connected, transferOut, action };
}
export function agentChecks() {
    const needs = ['state', 'sandbox'];
    return [
        check('agents.create', { operations: ['createAgent', 'getAgent', 'listAgents'], status: 201, rule: `a new agent is not connected and comes with a device code valid 15 minutes (${GUIDE}; createAgent)` }, async (t) => {
            const customer = await individual(t);
            const created = await unconnected(t, customer.id);
            t.is.contains(created.agent, { customerId: customer.id, isPaused: false, isConnected: false, policy: policy() }, 'the agent as asked for, not connected');
            t.is.contains(created.deviceCode, { agentId: created.agent.id, redeemed: false }, 'its first device code');
            t.is.equal(Date.parse(created.deviceCode.expiresAt) - Date.parse(created.agent.createdAt), 15 * 60_000, 'a device code is valid 15 minutes (agents guide)');
            t.is.equal(t.expect(await t.call('GET', `/agents/${enc(created.agent.id)}`), 200, 'getAgent answers 200'), created.agent, 'getAgent answers the agent as created');
            const listed = t.expect(await t.call('GET', '/agents', { query: { customerId: customer.id } }), 200, 'listAgents answers 200');
            t.is.equal(ids(listed.data), [created.agent.id], "listAgents by customerId lists the customer's agents");
        }),
        check('agents.create.errors', { operations: ['createAgent'], status: 410, rule: 'an agent of an unknown customer is 404, of a deleted one 410 CUSTOMER_DELETED; a policy naming another customer\'s account is 400 INVALID_INPUT (createAgent, errors guide)' }, async (t) => {
            t.expectError(await t.call('POST', '/agents', { body: { name: t.uid(), customerId: 'Customer:019542f5-b3e7-1d02-0000-00000000dead', policy: policy() }, key: t.key() }), 404, 'CUSTOMER_NOT_FOUND', 'the customer must exist');
            const gone = await individual(t);
            t.expect(await t.call('DELETE', `/customers/${enc(gone.id)}`), 200, 'deleteCustomer answers 200');
            t.expectError(await t.call('POST', '/agents', { body: { name: t.uid(), customerId: gone.id, policy: policy() }, key: t.key() }), 410, 'CUSTOMER_DELETED', 'no agent for a deleted customer');
            const owner = await individual(t);
            const foreign = (await accountOf(t, (await individual(t)).id)).id;
            t.expectError(await t.call('POST', '/agents', { body: { name: t.uid(), customerId: owner.id, policy: policy({ accountRestrictions: { allowedAccountIds: [foreign] } }) }, key: t.key() }), 400, 'INVALID_INPUT', "a policy names only the customer's own accounts");
        }),
        check('agents.update', { operations: ['updateAgent', 'updateAgentPolicy', 'listAgents'], status: 200, rule: 'PATCH renames and pauses; a policy update replaces lists and modes, merges limits field by field, and null removes (updateAgent, updateAgentPolicy)' }, async (t) => {
            const customer = await individual(t);
            const account = (await accountOf(t, customer.id)).id;
            const created = await unconnected(t, customer.id, { accountRestrictions: { allowedAccountIds: [account] }, approvalThresholds: { currency: 'USD', amount: 25_000 } });
            const agentId = created.agent.id;
            const renamed = t.expect(await t.call('PATCH', `/agents/${enc(agentId)}`, { body: { name: 'Travel helper', isPaused: true } }), 200, 'updateAgent answers 200');
            t.is.contains(renamed, { name: 'Travel helper', isPaused: true }, 'the agent is renamed and paused');
            t.is.equal(t.expect(await t.call('GET', '/agents', { query: { customerId: customer.id, isPaused: true } }), 200, 'listAgents answers 200').totalCount, 1, 'isPaused=true lists the paused agent');
            const body = { defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { dailyLimit: null, monthlyLimit: 900_000 }, accountRestrictions: null };
            const updated = t.expect(await t.call('PATCH', `/agents/${enc(agentId)}/policy`, { body }), 200, 'updateAgentPolicy answers 200');
            t.is.equal(updated.policy, { permissions: policy().permissions, defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, monthlyLimit: 900_000 }, approvalThresholds: { currency: 'USD', amount: 25_000 } }, 'limits are merged field by field and null removes (updateAgentPolicy)');
        }),
        check('agents.device-codes', { operations: ['redeemAgentDeviceCode', 'createAgentDeviceCode'], status: 200, rule: `a device code is redeemed once, without credentials, for the access token (400 DEVICE_CODE_ALREADY_REDEEMED after); a new code replaces an unredeemed one (400 DEVICE_CODE_EXPIRED); a connected agent gets no new code (409 AGENT_ALREADY_CONNECTED) (${GUIDE})` }, async (t) => {
            const customer = await individual(t);
            const created = await unconnected(t, customer.id);
            const fresh = t.expect(await t.call('POST', `/agents/${enc(created.agent.id)}/device-codes`, { key: t.key() }), 201, 'createAgentDeviceCode answers 201');
            t.expectError(await redeem(t, created.deviceCode.code), 400, 'DEVICE_CODE_EXPIRED', 'a newer code replaces the first');
            const redeemed = t.expect(await redeem(t, fresh.code), 200, 'redeemAgentDeviceCode answers 200');
            t.is.contains(redeemed, { agentId: created.agent.id, policy: policy() }, 'redeeming answers the agent and its policy');
            t.is.ok(typeof redeemed.accessToken === 'string' && redeemed.accessToken.length > 0, 'redeeming answers the access token (agents guide)', 'an accessToken', () => 'none');
            t.expectError(await redeem(t, fresh.code), 400, 'DEVICE_CODE_ALREADY_REDEEMED', 'a code is redeemed once');
            t.is.equal(t.expect(await t.call('GET', `/agents/${enc(created.agent.id)}`), 200, 'getAgent answers 200').isConnected, true, 'the agent is connected');
            t.expectError(await t.call('POST', `/agents/${enc(created.agent.id)}/device-codes`, { key: t.key() }), 409, 'AGENT_ALREADY_CONNECTED', 'a connected agent needs no code');
        }),
        check('agents.bearer', { operations: ['getCurrentAgent', 'listCustomers'], status: 200, rule: `only the agent's bearer token works on /agents/me, and only platform credentials elsewhere: otherwise 401 (${GUIDE}; authentication guide)` }, async (t) => {
            const a = await agent(t, policy());
            const me = t.expect(await t.call('GET', '/agents/me', as(a)), 200, 'getCurrentAgent answers 200');
            t.is.contains(me, { id: a.agentId, customerId: a.customerId, isConnected: true }, 'the agent reads itself');
            t.expectError(await t.call('GET', '/agents/me'), 401, 'UNAUTHORIZED', 'platform credentials do not work on /agents/me');
            t.expectError(await t.call('GET', '/agents/me', { as: { bearer: 'agt_sandbox_not-a-token-of-anyone-at-all-000' } }), 401, 'UNAUTHORIZED', 'an unknown access token');
            t.expectError(await t.call('GET', '/customers', as(a)), 401, 'UNAUTHORIZED', 'an agent token does not work on platform routes');
        }),
        check('agents.paused-and-deleted', { operations: ['updateAgent', 'deleteAgent', 'getCurrentAgent'], status: 403, rule: `a paused agent gets 403 AGENT_PAUSED until resumed; a deleted agent gets 401 at once and its codes are gone (404) (${GUIDE})` }, async (t) => {
            const a = await agent(t, policy());
            t.expect(await t.call('PATCH', `/agents/${enc(a.agentId)}`, { body: { isPaused: true } }), 200, 'updateAgent answers 200');
            t.expectError(await t.call('GET', '/agents/me', as(a)), 403, 'AGENT_PAUSED', 'a paused agent is refused');
            t.expect(await t.call('PATCH', `/agents/${enc(a.agentId)}`, { body: { isPaused: false } }), 200, 'updateAgent answers 200');
            t.expect(await t.call('GET', '/agents/me', as(a)), 200, 'a resumed agent works again');
            const waiting = await unconnected(t, a.customerId);
            t.expect(await t.call('DELETE', `/agents/${enc(a.agentId)}`), 204, 'deleteAgent answers 204');
            t.expect(await t.call('DELETE', `/agents/${enc(waiting.agent.id)}`), 204, 'deleteAgent answers 204');
            t.expectError(await t.call('GET', '/agents/me', as(a)), 401, 'UNAUTHORIZED', "a deleted agent's token stops at once");
            t.expectError(await t.call('GET', `/agents/${enc(a.agentId)}`), 404, 'AGENT_NOT_FOUND', 'a deleted agent is not found');
            t.expectError(await redeem(t, waiting.deviceCode.code), 404, 'DEVICE_CODE_NOT_FOUND', "a deleted agent's code is gone");
        }),
        check('agents.scope', { operations: ['listCurrentAgentInternalAccounts', 'listCurrentAgentTransactions', 'getCurrentAgentTransaction', 'createCurrentAgentExternalAccount', 'listCurrentAgentExternalAccounts'], status: 200, rule: `an agent sees only its customer's accounts and transactions (another customer's is 404) and registers accounts only for its customer (${GUIDE}; authentication guide: isolation)`, needs: [...needs] }, async (t) => {
            const a = await agent(t, policy({ permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS'] }));
            const mine = (await accountOf(t, a.customerId)).id;
            const stranger = await individual(t);
            const theirs = (await accountOf(t, stranger.id)).id;
            await fund(t, mine, 5_000);
            await fund(t, theirs, 7_000);
            const only = async (customerId) => t.expect(await t.call('GET', '/transactions', { query: { customerId } }), 200, 'listTransactions answers 200').data[0]?.id ?? '';
            const [myFunding, theirFunding] = [await only(a.customerId), await only(stranger.id)];
            t.is.equal(ids(t.expect(await t.call('GET', '/agents/me/internal-accounts', as(a)), 200, 'listCurrentAgentInternalAccounts answers 200').data), [mine], "the agent lists its customer's accounts only");
            t.is.equal(ids(t.expect(await t.call('GET', '/agents/me/transactions', as(a)), 200, 'listCurrentAgentTransactions answers 200').data), [myFunding], "the agent lists its customer's transactions only");
            t.expect(await t.call('GET', `/agents/me/transactions/${enc(myFunding)}`, as(a)), 200, 'getCurrentAgentTransaction answers 200');
            t.expectError(await t.call('GET', `/agents/me/transactions/${enc(theirFunding)}`, as(a)), 404, 'TRANSACTION_NOT_FOUND', "another customer's transaction does not exist for the agent");
            const registered = t.expect(await t.call('POST', '/agents/me/external-accounts', { body: { currency: 'USD', accountInfo: accountInfo.usd() }, key: t.key(), ...as(a) }), 201, 'createCurrentAgentExternalAccount answers 201');
            t.is.equal(registered.customerId, a.customerId, "the agent's account is its customer's");
            t.expectError(await t.call('POST', '/agents/me/external-accounts', { body: { customerId: stranger.id, currency: 'USD', accountInfo: accountInfo.usd() }, key: t.key(), ...as(a) }), 400, 'INVALID_INPUT', 'an agent registers accounts for its customer only');
            t.is.equal(ids(t.expect(await t.call('GET', '/agents/me/external-accounts', as(a)), 200, 'listCurrentAgentExternalAccounts answers 200').data), [registered.id], "the agent lists its customer's external accounts");
        }),
        check('agents.quotes', { operations: ['createCurrentAgentQuote', 'getCurrentAgentQuote', 'executeCurrentAgentQuote'], status: 200, rule: `an agent quotes from its customer's accounts; executing it is an APPROVED action at the locked terms, once (409 after); an account outside accountRestrictions is 403 AGENT_POLICY_VIOLATION (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t);
            const body = { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: s.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000 };
            const quote = t.expect(await t.call('POST', '/agents/me/quotes', { body, key: t.key(), ...as(s.connected) }), 201, 'createCurrentAgentQuote answers 201');
            t.is.equal(t.expect(await t.call('GET', `/agents/me/quotes/${enc(quote.id)}`, as(s.connected)), 200, 'getCurrentAgentQuote answers 200'), quote, 'the agent reads its quote');
            const executed = t.expect(await t.call('POST', `/agents/me/quotes/${enc(quote.id)}/execute`, { key: t.key(), ...as(s.connected) }), 200, 'executeCurrentAgentQuote answers 200 with the action');
            t.is.contains(executed, { type: 'EXECUTE_QUOTE', status: 'APPROVED', quote: { id: quote.id, status: 'COMPLETED', totalSendingAmount: 5_000 } }, 'an AUTO execution within limits is APPROVED at the locked terms');
            t.is.equal(await balanceOf(t, s.eur), quote.totalReceivingAmount, 'the destination is credited the receiving amount');
            t.expect(await t.call('POST', `/agents/me/quotes/${enc(quote.id)}/execute`, { key: t.key(), ...as(s.connected) }), 409, 'a quote executes once');
            const restricted = await agent(t, policy({ accountRestrictions: { allowedAccountIds: [s.usd] } }), s.customerId);
            t.expectError(await t.call('POST', '/agents/me/quotes', { body, key: t.key(), ...as(restricted) }), 403, 'AGENT_POLICY_VIOLATION', 'an account outside the restrictions');
        }),
        check('agents.actions.auto', { operations: ['createCurrentAgentTransferOut', 'createCurrentAgentTransferIn', 'getCurrentAgentAction', 'listCurrentAgentActions', 'getAgent'], status: 201, rule: `an AUTO transfer within the limits is APPROVED at once and sent like the platform's own; the usage counts it (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t);
            const action = await s.action(10_000);
            t.is.contains(action, { type: 'TRANSFER_OUT', status: 'APPROVED', agentId: s.connected.agentId, customerId: s.customerId, transferDetails: { amount: 10_000, sourceAccountId: s.usd, destinationAccountId: s.bank } }, 'the action is APPROVED');
            t.is.equal(await balanceOf(t, s.usd), 90_000, 'the transfer is sent');
            t.is.equal(t.expect(await t.call('GET', `/agents/me/actions/${enc(action.id)}`, as(s.connected)), 200, 'getCurrentAgentAction answers 200').id, action.id, 'the agent reads its action');
            t.is.equal(ids(t.expect(await t.call('GET', '/agents/me/actions', { query: { status: 'APPROVED' }, ...as(s.connected) }), 200, 'listCurrentAgentActions answers 200').data), [action.id], 'listCurrentAgentActions filters by status');
            const transferIn = t.expect(await t.call('POST', '/agents/me/transfer-in', { body: { source: { accountId: s.bank }, destination: { accountId: s.usd }, amount: 2_000 }, key: t.key(), ...as(s.connected) }), 201, 'createCurrentAgentTransferIn answers 201');
            t.is.contains(transferIn, { type: 'TRANSFER_IN', status: 'APPROVED' }, 'a transfer-in is an action too');
            const usage = t.expect(await t.call('GET', `/agents/${enc(s.connected.agentId)}`), 200, 'getAgent answers 200').usage;
            t.is.contains(usage, { dailyTransactionCount: 2 }, "the agent's usage counts its actions");
        }),
        check('agents.404-accounts', { operations: ['createCurrentAgentTransferOut', 'createCurrentAgentTransferIn', 'createCurrentAgentQuote'], status: 404, rule: `an agent's transfer or quote naming an account that does not exist is 404 INTERNAL_ACCOUNT_NOT_FOUND or EXTERNAL_ACCOUNT_NOT_FOUND, and creates nothing (${GUIDE}; errors guide)`, needs: [...needs] }, async (t) => {
            const s = await setup(t);
            const unknownInternal = 'InternalAccount:019542f5-b3e7-1d02-0000-00000000dead';
            const unknownExternal = 'ExternalAccount:019542f5-b3e7-1d02-0000-00000000dead';
            const call = (path, body) => t.call('POST', path, { body, key: t.key(), ...as(s.connected) });
            t.expectError(await call('/agents/me/transfer-out', { source: { accountId: s.usd }, destination: { accountId: unknownExternal }, amount: 100 }), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND', 'the destination must exist');
            t.expectError(await call('/agents/me/transfer-in', { source: { accountId: s.bank }, destination: { accountId: unknownInternal }, amount: 100 }), 404, 'INTERNAL_ACCOUNT_NOT_FOUND', 'the destination must exist');
            t.expectError(await call('/agents/me/quotes', { source: { sourceType: 'ACCOUNT', accountId: s.usd }, destination: { destinationType: 'ACCOUNT', accountId: unknownInternal }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 }), 404, 'INTERNAL_ACCOUNT_NOT_FOUND', 'the destination must exist');
            t.is.equal(t.expect(await t.call('GET', '/agents/me/actions', as(s.connected)), 200, 'listCurrentAgentActions answers 200').totalCount, 0, 'refused requests record no action');
            t.is.equal(await balanceOf(t, s.usd), 100_000, 'refused requests move nothing');
        }),
        check('agents.actions.limits', { operations: ['createCurrentAgentTransferOut'], status: 403, rule: `a transfer over perTransactionLimit or dailyLimit is 403 AGENT_POLICY_VIOLATION and creates nothing (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t, { spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, dailyLimit: 8_000 } });
            t.expectError(await s.transferOut(5_001), 403, 'AGENT_POLICY_VIOLATION', 'over the per-transaction limit');
            await s.action(5_000);
            t.expectError(await s.transferOut(3_001), 403, 'AGENT_POLICY_VIOLATION', 'over the daily limit');
            t.is.equal(t.expect(await t.call('GET', '/agents/me/actions', as(s.connected)), 200, 'listCurrentAgentActions answers 200').totalCount, 1, 'refused actions are not recorded');
            t.is.equal(await balanceOf(t, s.usd), 95_000, 'refused actions move nothing');
        }),
        check('agents.actions.approval', { operations: ['approveAgentAction', 'getAgentAction', 'listAgentActions', 'getTransaction'], status: 200, rule: `under APPROVAL_REQUIRED an action waits as PENDING_APPROVAL with its payment PENDING_APPROVAL and nothing moved; approving starts it, once (409 AGENT_ACTION_NOT_PENDING after) (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
            const pending = await s.action(10_000);
            t.is.equal(pending.status, 'PENDING_APPROVAL', 'the action waits for the platform');
            const tx = t.expect(await t.call('GET', `/transactions/${enc(pending.transactionId ?? '')}`), 200, 'getTransaction answers 200');
            t.is.contains(tx, { status: 'PENDING_APPROVAL', agentActionId: pending.id }, 'its payment waits too');
            t.is.equal(await balanceOf(t, s.usd), 100_000, 'nothing moves before approval');
            const listed = t.expect(await t.call('GET', `/agents/${enc(s.connected.agentId)}/actions`, { query: { status: 'PENDING_APPROVAL' } }), 200, 'listAgentActions answers 200');
            t.is.equal(ids(listed.data), [pending.id], 'listAgentActions lists what waits');
            const path = `/agents/${enc(s.connected.agentId)}/actions/${enc(pending.id)}`;
            const approved = t.expect(await t.call('POST', `${path}/approve`, { key: t.key() }), 200, 'approveAgentAction answers 200');
            t.is.contains(approved, { status: 'APPROVED', transaction: { id: pending.transactionId } }, 'the approved action and its payment');
            t.is.equal(await balanceOf(t, s.usd), 90_000, 'approving sends the transfer');
            t.is.equal(t.expect(await t.call('GET', path), 200, 'getAgentAction answers 200').status, 'APPROVED', 'the action reads as approved');
            t.expectError(await t.call('POST', `${path}/approve`, { key: t.key() }), 409, 'AGENT_ACTION_NOT_PENDING', 'an action is decided once');
        }),
        check('agents.actions.reject', { operations: ['rejectAgentAction', 'rejectTransaction', 'approveTransaction'], status: 200, rule: `rejecting (on the action or its transaction) keeps the reason and moves nothing, once (409 after); approving the transaction is approving the action; a transaction no action waits on is 409 TRANSACTION_NOT_PENDING_APPROVAL (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
            const first = await s.action(1_000);
            const reject = () => t.call('POST', `/agents/${enc(s.connected.agentId)}/actions/${enc(first.id)}/reject`, { body: { reason: 'Not this month' }, key: t.key() });
            const rejected = t.expect(await reject(), 200, 'rejectAgentAction answers 200');
            t.is.contains(rejected, { status: 'REJECTED', rejectionReason: 'Not this month' }, 'the rejection keeps its reason');
            t.expectError(await reject(), 409, 'AGENT_ACTION_NOT_PENDING', 'an action is decided once');
            const second = await s.action(2_000);
            const viaTx = t.expect(await t.call('POST', `/transactions/${enc(second.transactionId ?? '')}/reject`, { body: { reason: 'No' }, key: t.key() }), 200, 'rejectTransaction answers 200');
            t.is.equal(viaTx.status, 'REJECTED', "rejecting the action's transaction rejects it");
            t.expectError(await t.call('POST', `/transactions/${enc(second.transactionId ?? '')}/approve`, { key: t.key() }), 409, 'TRANSACTION_NOT_PENDING_APPROVAL', 'a rejected transaction waits for nothing');
            t.expectError(await t.call('POST', `/transactions/${enc(second.transactionId ?? '')}/reject`, { key: t.key() }), 409, 'TRANSACTION_NOT_PENDING_APPROVAL', 'a transaction is rejected once');
            t.is.equal(await balanceOf(t, s.usd), 100_000, 'rejections move nothing');
            const third = await s.action(3_000);
            const started = t.expect(await t.call('POST', `/transactions/${enc(third.transactionId ?? '')}/approve`, { key: t.key() }), 200, 'approveTransaction answers 200');
            t.is.ok(started.status !== 'PENDING_APPROVAL', 'approving the transaction starts the payment', 'another status than PENDING_APPROVAL', () => started.status);
            t.is.equal(t.expect(await t.call('GET', `/agents/${enc(s.connected.agentId)}/actions/${enc(third.id)}`), 200, 'getAgentAction answers 200').status, 'APPROVED', "approving the transaction approves its action");
            t.is.equal(await balanceOf(t, s.usd), 97_000, 'the approved transfer is sent');
        }),
        check('agents.actions.threshold', { operations: ['createCurrentAgentTransferOut', 'approveAgentAction'], status: 200, rule: `above approvalThresholds an AUTO action waits; approved when the balance is short, it FAILS and nothing moves (${GUIDE})`, needs: [...needs] }, async (t) => {
            const s = await setup(t, { approvalThresholds: { currency: 'USD', amount: 1_000 } }, 5_000);
            t.is.equal((await s.action(1_000)).status, 'APPROVED', 'at the threshold an AUTO action goes through');
            const big = await s.action(4_500);
            t.is.equal(big.status, 'PENDING_APPROVAL', 'above the threshold it waits');
            const failed = t.expect(await t.call('POST', `/agents/${enc(s.connected.agentId)}/actions/${enc(big.id)}/approve`, { key: t.key() }), 200, 'approveAgentAction answers 200');
            t.is.contains(failed, { status: 'FAILED', transaction: { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' } }, 'approved without the funds, it fails');
            t.is.equal(await balanceOf(t, s.usd), 4_000, 'a failed action moves nothing');
        }),
    ];
}
