import { CheckFailure } from "../check.js";
import { operations, takesIdempotencyKey } from "../bundle.js";
import { accountInfo, accountOf, accountPair, agent, business, fund, individual, ownerPersonalInfo, token, uploadForm } from "../fixtures.js";
import { check, enc } from "./define.js";
import { simulationIdempotencyPairs } from "./simulations.js";
const GUIDE = 'idempotency guide';
const count = (t, path, query) => async () => t.expect(await t.call('GET', path, { query }), 200, `GET ${path} answers 200`).totalCount;
async function usdAndEur(t) {
    const customer = await individual(t, { currencies: ['USD', 'EUR'] });
    const usd = (await accountOf(t, customer.id, 'USD')).id;
    const eur = (await accountOf(t, customer.id, 'EUR')).id;
    await fund(t, usd, 10_000);
    return { customerId: customer.id, usd, eur };
}
const toEur = (usd, eur, amount) => ({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
/** An agent of a customer with funded USD, an EUR account and a bank account. */
async function agentWith(t, policy = {}) {
    const { customerId, usd, eur } = await usdAndEur(t);
    const bank = (await t.call('POST', '/customers/external-accounts', { body: { customerId, currency: 'USD', accountInfo: accountInfo.usd() }, key: t.key() })).body;
    const connected = await agent(t, policy, customerId);
    return { customerId, usd, eur, bank: bank.id, connected, as: { bearer: connected.accessToken } };
}
/** Agent actions waiting for approval. */
async function pendingActions(t) {
    const s = await agentWith(t, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const actions = [];
    for (let i = 0; i < 2; i++) {
        const reply = await t.call('POST', '/agents/me/transfer-out', { body: { source: { accountId: s.usd }, destination: { accountId: s.bank }, amount: 100 }, key: t.key(), as: s.as });
        actions.push(t.expect(reply, 201, 'createCurrentAgentTransferOut answers 201'));
    }
    const decided = async () => t.expect(await t.call('GET', `/agents/${enc(s.connected.agentId)}/actions`), 200, 'listAgentActions answers 200').data.filter((a) => a.status !== 'PENDING_APPROVAL').length;
    return { ...s, actions, decided };
}
const json = (value) => () => value;
const pairs = {
    ...simulationIdempotencyPairs,
    createToken: async (t) => {
        const name = t.uid();
        t.cleanup(`deleting the tokens named ${name}`, async () => {
            const list = await t.http.send('GET', '/tokens', { query: { name } });
            for (const tok of list.body?.data ?? [])
                await t.http.send('DELETE', `/tokens/${enc(tok.id)}`);
        });
        return [{ path: '/tokens', body: json({ name, permissions: ['VIEW'] }) }, { path: '/tokens', body: json({ name, permissions: ['MANAGE'] }) }, count(t, '/tokens', { name })];
    },
    createCustomer: async (t) => {
        const id = t.uid();
        return [{ path: '/customers', body: json({ customerType: 'INDIVIDUAL', platformCustomerId: id }) }, { path: '/customers', body: json({ customerType: 'INDIVIDUAL', platformCustomerId: id, fullName: 'Jane' }) }, count(t, '/customers', { platformCustomerId: id })];
    },
    createBeneficialOwner: async (t) => {
        const customerId = (await business(t)).id;
        const body = (lastName) => json({ customerId, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo(lastName) });
        return [{ path: '/beneficial-owners', body: body('Lovelace') }, { path: '/beneficial-owners', body: body('Byron') }, count(t, '/beneficial-owners', { customerId })];
    },
    uploadDocument: async (t) => {
        const holder = (await individual(t)).id;
        const form = (country) => () => uploadForm({ documentHolder: holder, documentType: 'PASSPORT', country });
        return [{ path: '/documents', form: form('US') }, { path: '/documents', form: form('GB') }, count(t, '/documents', { documentHolder: holder })];
    },
    createVerification: async (t) => {
        const customerId = (await individual(t)).id;
        const other = (await individual(t)).id;
        return [{ path: '/verifications', body: json({ customerId }) }, { path: '/verifications', body: json({ customerId: other }) }, count(t, '/verifications', { customerId })];
    },
    createCustomerExternalAccount: async (t) => {
        const customerId = (await individual(t)).id;
        return [
            { path: '/customers/external-accounts', body: json({ customerId, currency: 'USD', accountInfo: accountInfo.usd() }) },
            { path: '/customers/external-accounts', body: json({ customerId, currency: 'USD', accountInfo: accountInfo.usd() }) },
            count(t, '/customers/external-accounts', { customerId }),
        ];
    },
    createPlatformExternalAccount: async () => [
        { path: '/platform/external-accounts', body: json({ currency: 'USD', accountInfo: accountInfo.usd() }) },
        { path: '/platform/external-accounts', body: json({ currency: 'USD', accountInfo: accountInfo.usd() }) },
        undefined,
    ],
    createTransferIn: async (t) => {
        const { internal, external } = await accountPair(t, '000', 10_000);
        const body = (amount) => json({ source: { accountId: external.id }, destination: { accountId: internal.id }, amount });
        return [{ path: '/transfer-in', body: body(100) }, { path: '/transfer-in', body: body(200) }, count(t, '/transactions', { accountId: external.id })];
    },
    createTransferOut: async (t) => {
        const { internal, external } = await accountPair(t, '000', 10_000);
        const body = (amount) => json({ source: { accountId: internal.id }, destination: { accountId: external.id }, amount });
        return [{ path: '/transfer-out', body: body(100) }, { path: '/transfer-out', body: body(200) }, count(t, '/transactions', { accountId: external.id })];
    },
    cancelTransaction: async (t) => {
        // A transfer-out to an account ending in 005 stays PENDING long enough to be cancelled.
        const { internal, external } = await accountPair(t, '005', 10_000);
        const sent = t.expect(await t.call('POST', '/transfer-out', { body: { source: { accountId: internal.id }, destination: { accountId: external.id }, amount: 100 }, key: t.key() }), 201, 'createTransferOut answers 201');
        const path = `/transactions/${enc(sent.id)}/cancel`;
        return [{ path, body: json({ reason: 'first' }) }, { path, body: json({ reason: 'second' }) }, count(t, '/transactions', { accountId: external.id, status: 'CANCELLED' })];
    },
    createQuote: async (t) => {
        const { usd, eur } = await usdAndEur(t);
        const body = (amount) => json({ ...toEur(usd, eur, amount), immediatelyExecute: true });
        return [{ path: '/quotes', body: body(1_000) }, { path: '/quotes', body: body(2_000) }, count(t, '/transactions', { sourceAccountId: usd })];
    },
    executeQuote: async (t) => {
        const { usd, eur } = await usdAndEur(t);
        const quote = async () => t.expect(await t.call('POST', '/quotes', { body: toEur(usd, eur, 1_000), key: t.key() }), 201, 'createQuote answers 201').id;
        const [first, second] = [await quote(), await quote()];
        return [{ path: `/quotes/${enc(first)}/execute` }, { path: `/quotes/${enc(second)}/execute` }, count(t, '/transactions', { sourceAccountId: usd })];
    },
    sendSandboxPayment: async (t) => {
        const customerId = (await individual(t)).id;
        const found = t.expect(await t.call('GET', `/receiver/uma/${enc('$success.usd@sandbox.uma.money')}`, { query: { customerId } }), 200, 'lookupUmaReceiver answers 200');
        const quote = async () => t.expect(await t.call('POST', '/quotes', { body: { source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, lookupId: found.lookupId, senderCustomerInfo: { FULL_NAME: 'Jane Doe' } }, key: t.key() }), 201, 'createQuote answers 201').id;
        const [first, second] = [await quote(), await quote()];
        return [{ path: '/sandbox/send', body: json({ quoteId: first, currencyCode: 'EUR' }) }, { path: '/sandbox/send', body: json({ quoteId: second, currencyCode: 'EUR' }) }, undefined];
    },
    fundSandboxInternalAccount: async (t) => {
        const account = (await accountOf(t, (await individual(t)).id)).id;
        const path = `/sandbox/internal-accounts/${enc(account)}/fund`;
        return [{ path, body: json({ amount: 100 }) }, { path, body: json({ amount: 200 }) }, count(t, '/transactions', { accountId: account })];
    },
    receiveSandboxUmaPayment: async (t) => {
        const customer = await individual(t);
        const body = (amount) => json({ senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress: customer.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: amount });
        return [{ path: '/sandbox/uma/receive', body: body(100) }, { path: '/sandbox/uma/receive', body: body(200) }, count(t, '/transactions', { customerId: customer.id })];
    },
    createInvitation: async (t) => [
        { path: '/invitations', body: json({ inviterUma: `$${t.uid()}@payments.example.org`, firstName: 'Ada' }) },
        { path: '/invitations', body: json({ inviterUma: `$${t.uid()}@payments.example.org`, firstName: 'Grace' }) },
        undefined,
    ],
    createAuthCredential: async (t) => {
        const customer = await individual(t, { embeddedWalletCurrencies: ['USD'] });
        const wallet = t.expect(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, type: 'EMBEDDED_WALLET' } }), 200, 'listCustomerInternalAccounts answers 200').data[0]?.id ?? '';
        const body = (email) => json({ type: 'EMAIL_OTP', accountId: wallet, email });
        const credentials = async () => t.expect(await t.call('GET', '/auth/credentials', { query: { accountId: wallet } }), 200, 'listAuthCredentials answers 200').data.length;
        return [{ path: '/auth/credentials', body: body('jane@example.com') }, { path: '/auth/credentials', body: body('john@example.com') }, credentials];
    },
    createAgent: async (t) => {
        const customerId = (await individual(t)).id;
        t.cleanup(`deleting the agents of ${customerId}`, async () => {
            const list = await t.http.send('GET', '/agents', { query: { customerId } });
            for (const a of list.body?.data ?? [])
                await t.http.send('DELETE', `/agents/${enc(a.id)}`);
        });
        const body = (name) => json({ name, customerId, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } } });
        return [{ path: '/agents', body: body('first') }, { path: '/agents', body: body('second') }, count(t, '/agents', { customerId })];
    },
    createAgentDeviceCode: async (t) => {
        const customerId = (await individual(t)).id;
        const waiting = async () => {
            const created = t.expect(await t.call('POST', '/agents', { body: { name: t.uid(), customerId, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100 } } }, key: t.key() }), 201, 'createAgent answers 201');
            t.cleanup(`deleting the agent ${created.agent.id}`, () => t.http.send('DELETE', `/agents/${enc(created.agent.id)}`));
            return `/agents/${enc(created.agent.id)}/device-codes`;
        };
        return [{ path: await waiting() }, { path: await waiting() }, undefined];
    },
    approveAgentAction: async (t) => {
        const p = await pendingActions(t);
        const path = (i) => `/agents/${enc(p.connected.agentId)}/actions/${enc(p.actions[i]?.id ?? '')}/approve`;
        return [{ path: path(0) }, { path: path(1) }, p.decided];
    },
    rejectAgentAction: async (t) => {
        const p = await pendingActions(t);
        const path = (i) => `/agents/${enc(p.connected.agentId)}/actions/${enc(p.actions[i]?.id ?? '')}/reject`;
        return [{ path: path(0), body: json({ reason: 'no' }) }, { path: path(1), body: json({ reason: 'no' }) }, p.decided];
    },
    approveTransaction: async (t) => {
        const p = await pendingActions(t);
        return [{ path: `/transactions/${enc(p.actions[0]?.transactionId ?? '')}/approve` }, { path: `/transactions/${enc(p.actions[1]?.transactionId ?? '')}/approve` }, p.decided];
    },
    rejectTransaction: async (t) => {
        const p = await pendingActions(t);
        return [{ path: `/transactions/${enc(p.actions[0]?.transactionId ?? '')}/reject` }, { path: `/transactions/${enc(p.actions[1]?.transactionId ?? '')}/reject` }, p.decided];
    },
    createCurrentAgentExternalAccount: async (t) => {
        const s = await agentWith(t, { permissions: ['MANAGE_EXTERNAL_ACCOUNTS', 'VIEW_TRANSACTIONS'] });
        const body = () => ({ currency: 'USD', accountInfo: accountInfo.usd() });
        const mine = async () => t.expect(await t.call('GET', '/agents/me/external-accounts', { as: s.as }), 200, 'listCurrentAgentExternalAccounts answers 200').totalCount;
        return [{ path: '/agents/me/external-accounts', body: json(body()), as: s.as }, { path: '/agents/me/external-accounts', body: json(body()), as: s.as }, mine];
    },
    createCurrentAgentQuote: async (t) => {
        const s = await agentWith(t);
        return [{ path: '/agents/me/quotes', body: json(toEur(s.usd, s.eur, 1_000)), as: s.as }, { path: '/agents/me/quotes', body: json(toEur(s.usd, s.eur, 2_000)), as: s.as }, undefined];
    },
    executeCurrentAgentQuote: async (t) => {
        const s = await agentWith(t);
        const quote = async (amount) => `/agents/me/quotes/${enc(t.expect(await t.call('POST', '/agents/me/quotes', { body: toEur(s.usd, s.eur, amount), key: t.key(), as: s.as }), 201, 'createCurrentAgentQuote answers 201').id)}/execute`;
        const actions = async () => t.expect(await t.call('GET', '/agents/me/actions', { as: s.as }), 200, 'listCurrentAgentActions answers 200').totalCount;
        return [{ path: await quote(1_000), as: s.as }, { path: await quote(2_000), as: s.as }, actions];
    },
    createCurrentAgentTransferIn: async (t) => {
        const s = await agentWith(t);
        const body = (amount) => json({ source: { accountId: s.bank }, destination: { accountId: s.usd }, amount });
        const actions = async () => t.expect(await t.call('GET', '/agents/me/actions', { as: s.as }), 200, 'listCurrentAgentActions answers 200').totalCount;
        return [{ path: '/agents/me/transfer-in', body: body(100), as: s.as }, { path: '/agents/me/transfer-in', body: body(200), as: s.as }, actions];
    },
    createCurrentAgentTransferOut: async (t) => {
        const s = await agentWith(t);
        const body = (amount) => json({ source: { accountId: s.usd }, destination: { accountId: s.bank }, amount });
        const actions = async () => t.expect(await t.call('GET', '/agents/me/actions', { as: s.as }), 200, 'listCurrentAgentActions answers 200').totalCount;
        return [{ path: '/agents/me/transfer-out', body: body(100), as: s.as }, { path: '/agents/me/transfer-out', body: body(200), as: s.as }, actions];
    },
};
const send = (t, r, key) => {
    const options = { key };
    const body = r.body?.();
    if (body !== undefined)
        options.body = body;
    if (r.form !== undefined)
        options.form = r.form();
    if (r.as !== undefined)
        options.as = r.as;
    return t.call('POST', r.path, options);
};
/** The operationIds the pairs above cover (every POST documenting an Idempotency-Key). */
export const keyedOperations = Object.keys(pairs);
export function idempotencyChecks() {
    const keyed = operations.filter((o) => o.method === 'post' && takesIdempotencyKey(o)).map((o) => o.operationId);
    const missing = keyed.filter((id) => pairs[id] === undefined);
    if (missing.length > 0)
        throw new Error(`conformance: no Idempotency-Key check for ${missing.join(', ')}`);
    const checks = keyed.map((operationId) => check(`idempotency.${operationId}`, { operations: [operationId], status: 422, rule: `the same Idempotency-Key and request is the stored answer with Idempotent-Replayed: true and one effect; the key with another request is 422 IDEMPOTENCY_KEY_REUSED (${GUIDE})`, needs: ['state', 'sandbox'], tags: ['idempotency'] }, async (t) => {
        const [first, second, effects] = await pairs[operationId](t);
        const key = t.key();
        const before = effects === undefined ? 0 : await effects();
        const original = await send(t, first, key);
        t.is.ok(original.status >= 200 && original.status < 300, `${operationId} succeeds`, 'a 2xx', () => `${original.status} ${original.text.slice(0, 300)}`, original);
        t.is.ok(original.headers.get('idempotent-replayed') === null, `a first request is not a replay (${GUIDE})`, 'no Idempotent-Replayed header', () => String(original.headers.get('idempotent-replayed')), original);
        const replay = await send(t, first, key);
        t.is.equal(replay.headers.get('idempotent-replayed'), 'true', `a replay is answered with the stored response and Idempotent-Replayed: true (${GUIDE})`, replay);
        t.is.equal(replay.status, original.status, `a replay has the first answer's status (${GUIDE})`, replay);
        t.is.equal(replay.body, original.body, `a replay has the first answer's body (${GUIDE})`, replay);
        if (effects !== undefined)
            t.is.equal(await effects(), before + 1, `a replay does nothing again: one effect (${GUIDE})`);
        const other = await send(t, second, key);
        t.expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED', `a key names one request: another body with it is refused (${GUIDE})`);
        if (effects !== undefined)
            t.is.equal(await effects(), before + 1, `a refused reuse does nothing (${GUIDE})`);
    }));
    checks.push(check('idempotency.scope', { operations: ['createCustomer', 'createCustomerExternalAccount', 'createQuote', 'executeQuote'], status: 201, rule: `keys of different operations never meet: the same key on another operation (another method or path template) is a new request, processed, not replayed nor refused (${GUIDE})`, needs: ['state', 'sandbox'], tags: ['idempotency'] }, async (t) => {
        const key = t.key();
        const fresh = (reply, what) => {
            t.expect(reply, 201, `keys of different operations never meet: ${what} with a key another operation used is processed (${GUIDE})`);
            t.is.ok(reply.headers.get('idempotent-replayed') === null, `keys of different operations never meet: ${what} is not a replay of another operation's answer (${GUIDE})`, 'no Idempotent-Replayed header', () => `Idempotent-Replayed: ${String(reply.headers.get('idempotent-replayed'))}`, reply);
            return reply.body;
        };
        const customer = fresh(await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: t.uid(), fullName: 'Jane Doe', currencies: ['USD', 'EUR'] }, key }), 'createCustomer');
        fresh(await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', accountInfo: accountInfo.usd() }, key }), 'createCustomerExternalAccount');
        const usd = (await accountOf(t, customer.id, 'USD')).id;
        await fund(t, usd, 10_000);
        const eur = (await accountOf(t, customer.id, 'EUR')).id;
        // The guide's own example: creating and executing one quote may share a key.
        const quote = fresh(await t.call('POST', '/quotes', { body: toEur(usd, eur, 1_000), key }), 'createQuote');
        const executed = await t.call('POST', `/quotes/${enc(quote.id)}/execute`, { key });
        t.is.ok(executed.status >= 200 && executed.status < 300 && executed.headers.get('idempotent-replayed') === null, `keys of different operations never meet: executeQuote with the key of createQuote is processed (${GUIDE})`, 'a 2xx, not a replay', () => `${executed.status} ${executed.text.slice(0, 200)}`, executed);
    }), check('idempotency.refusals-leave-the-key-free', { operations: ['createCustomer'], status: 400, rule: `a request refused before it ran (400 invalid, 403 another token's) does not use up its key: the valid request with it is processed, not replayed (${GUIDE}: keys are per credential)`, tags: ['idempotency'] }, async (t) => {
        const key = t.key();
        const body = { customerType: 'INDIVIDUAL', platformCustomerId: t.uid() };
        t.expectError(await t.call('POST', '/customers', { body: { ...body, colour: 'red' }, key }), 400, 'INVALID_INPUT', 'an invalid body is refused');
        const viewer = await token(t, ['VIEW']);
        t.expectError(await t.call('POST', '/customers', { body, key, as: { basic: viewer } }), 403, 'FORBIDDEN', 'a VIEW token cannot create customers');
        const made = await t.call('POST', '/customers', { body, key });
        t.expect(made, 201, 'the valid request is processed');
        if (made.headers.get('idempotent-replayed') !== null)
            throw new CheckFailure(`a refused request leaves its key free (${GUIDE})`, 'a fresh answer', 'a replay', made);
    }));
    return checks;
}
