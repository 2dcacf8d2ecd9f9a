// Transactions: sandbox funding as an INCOMING transaction, the list's filters and order, and
// cancelling a PENDING transfer-out (and what cannot be cancelled).
import { CheckFailure } from "../check.js";
import { accountInfo, accountPair, balanceOf, externalAccount, fund } from "../fixtures.js";
import { check, enc, ids } from "./define.js";
import { created, getTransaction, inStatus, transferIn, transferOut } from "./transfers.js";
const list = async (t, query) => t.expect(await t.call('GET', '/transactions', { query: { limit: 100, ...query } }), 200, 'listTransactions answers 200');
const cancel = (t, id, body) => t.call('POST', `/transactions/${enc(id)}/cancel`, { ...(body === undefined ? {} : { body }), key: t.key() });
export function transactionChecks() {
    const needs = ['state', 'sandbox'];
    return [
        check('transactions.funding', { operations: ['fundSandboxInternalAccount', 'listTransactions', 'getTransaction'], status: 200, rule: 'sandbox funding credits the account and is an INCOMING COMPLETED transaction without a source (fundSandboxInternalAccount, Transaction)', needs: [...needs] }, async (t) => {
            const { internal } = await accountPair(t, '000', 4_321);
            t.is.equal(await balanceOf(t, internal.id), 4_321, 'funding credits its amount');
            const page = await list(t, { accountId: internal.id });
            t.is.equal(page.totalCount, 1, 'funding is one transaction of the account');
            const [tx] = page.data;
            if (tx === undefined)
                throw new CheckFailure('funding is listed among the account\'s transactions', 'a transaction', 'none');
            t.is.contains(tx, { type: 'INCOMING', direction: 'CREDIT', status: 'COMPLETED', destination: { accountId: internal.id }, receivedAmount: { amount: 4_321 } }, 'funding is an INCOMING COMPLETED transaction');
            t.is.ok(!('source' in tx), 'funding has no source (spec: IncomingTransaction)', 'no source', () => JSON.stringify(tx.source));
            t.is.equal(await getTransaction(t, tx.id), tx, 'a listed transaction is the transaction as GET answers it');
        }),
        check('transactions.list.filters', { operations: ['listTransactions'], status: 200, rule: 'listTransactions filters by accountId (either side), sourceAccountId, destinationAccountId, type and status (combined: AND), newest first unless sortOrder=ASC (spec: its parameters)', needs: [...needs] }, async (t) => {
            const a = await accountPair(t, '000', 100_000);
            const failing = await externalAccount(t, a.customerId, 'USD', accountInfo.usd('002'));
            const [funding] = (await list(t, { accountId: a.internal.id })).data;
            const out1 = created(t, await transferOut(t, a.internal.id, a.external.id, 1_000));
            const in2 = created(t, await transferIn(t, a.external.id, a.internal.id, 2_000));
            const out3 = created(t, await transferOut(t, a.internal.id, failing.id, 3_000));
            const all = [funding, out1, in2, out3].map((x) => x?.id ?? '');
            t.is.equal(ids((await list(t, { accountId: a.internal.id })).data), [...all].reverse(), 'accountId: every transaction of the account, newest first');
            t.is.equal(ids((await list(t, { accountId: a.internal.id, sortOrder: 'ASC' })).data), all, 'sortOrder=ASC: oldest first');
            t.is.equal(ids((await list(t, { sourceAccountId: a.internal.id })).data), [out3.id, out1.id], 'sourceAccountId: only transactions from the account');
            t.is.equal(ids((await list(t, { destinationAccountId: a.internal.id })).data), [in2.id, funding?.id ?? ''], 'destinationAccountId: only transactions into it');
            t.is.equal(ids((await list(t, { customerId: a.customerId, type: 'OUTGOING', status: 'FAILED' })).data), [out3.id], 'filters combine: customerId AND type AND status');
            t.is.equal(ids((await list(t, { accountId: a.external.id })).data), [in2.id, out1.id], 'accountId of an external account: the transfers with it');
        }),
        check('transactions.cancel.pending', { operations: ['cancelTransaction', 'getTransaction'], status: 200, rule: 'a PENDING transfer-out can be cancelled: CANCELLED with failureReason CANCELLED, the amount given back; a second cancel is 409 TRANSACTION_NOT_CANCELLABLE (cancelTransaction)', needs: [...needs] }, async (t) => {
            const { internal, external } = await accountPair(t, '005', 10_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 4_000));
            t.is.contains(tx, { status: 'PENDING' }, 'a transfer-out to an account ending in 005 is PENDING (sandbox guide)');
            const cancelled = t.expect(await cancel(t, tx.id, { reason: 'Customer asked to stop the payment.' }), 200, 'cancelTransaction answers 200 with the transaction');
            t.is.contains(cancelled, { id: tx.id, status: 'CANCELLED', failureReason: 'CANCELLED', sentAmount: tx.sentAmount, createdAt: tx.createdAt }, 'the cancelled transaction');
            t.is.equal(await balanceOf(t, internal.id), 10_000, 'a cancelled transfer-out gives its amount back');
            t.is.equal(await getTransaction(t, tx.id), cancelled, 'getTransaction answers the transaction as cancelled');
            t.expectError(await cancel(t, tx.id, { reason: 'again' }), 409, 'TRANSACTION_NOT_CANCELLABLE', 'a cancelled transaction cannot be cancelled again');
            t.is.equal(await balanceOf(t, internal.id), 10_000, 'the amount comes back once');
        }),
        check('transactions.cancel.409', { operations: ['cancelTransaction'], status: 409, rule: 'a COMPLETED or FAILED transfer-out, and any incoming transaction, is 409 TRANSACTION_NOT_CANCELLABLE; nothing changes (errors guide)', needs: [...needs] }, async (t) => {
            const done = await accountPair(t, '000', 10_000);
            const completed = created(t, await transferOut(t, done.internal.id, done.external.id, 2_000));
            const failedPair = await accountPair(t, '002', 10_000);
            const failed = created(t, await transferOut(t, failedPair.internal.id, failedPair.external.id, 2_000));
            const pendingIn = await accountPair(t, '005', 1_000);
            const incoming = created(t, await transferIn(t, pendingIn.external.id, pendingIn.internal.id, 5_000));
            for (const tx of [completed, failed, incoming]) {
                t.expectError(await cancel(t, tx.id), 409, 'TRANSACTION_NOT_CANCELLABLE', `a ${tx.type} ${tx.status} transaction cannot be cancelled`);
                t.is.equal(await getTransaction(t, tx.id), tx, 'a refused cancel changes nothing');
            }
            t.is.equal(await balanceOf(t, done.internal.id), 8_000, 'a refused cancel moves no money');
        }),
        check('transactions.status-forward', { operations: ['getTransaction', 'listTransactions', 'createTransferOut'], status: 200, rule: 'a transaction\'s status moves only along its state machine (spec: TransactionStatus, x-state-machine): every status read on the way to its outcome, and after it, is one the earlier reads lead to', needs: [...needs, 'slow'], tags: ['state-machines'], timeoutMs: 120_000 }, async (t) => {
            // Each read is recorded and compared with the earlier ones (status-history.ts): read often, on
            // the way to the outcome and after it, a status going back cannot hide between two reads.
            const settled = await accountPair(t, '000', 10_000);
            const completed = created(t, await transferOut(t, settled.internal.id, settled.external.id, 1_000));
            const delayed = await accountPair(t, '004', 10_000);
            const failing = created(t, await transferOut(t, delayed.internal.id, delayed.external.id, 1_000));
            await inStatus(t, failing.id, 'FAILED', t.outcomeWaitMs, 'a transfer-out to an account ending in 004 is FAILED a few seconds later (sandbox guide)');
            for (let i = 0; i < 3; i++) {
                for (const tx of [completed, failing])
                    await getTransaction(t, tx.id);
                await list(t, { accountId: settled.internal.id });
                await list(t, { accountId: delayed.internal.id });
            }
        }),
        check('transactions.funding.currencies', { operations: ['fundSandboxInternalAccount'], status: 200, rule: 'sandbox funding answers the account with its new balance, in any of its currencies (fundSandboxInternalAccount)', needs: [...needs], tags: ['sandbox'] }, async (t) => {
            const { internal } = await accountPair(t, '000', 1_000, 'EUR');
            const funded = await fund(t, internal.id, 2_500);
            t.is.contains(funded, { id: internal.id, balance: { amount: 3_500, currency: { code: 'EUR' } } }, 'the answer is the account with its new balance');
        }),
    ];
}
