import { accountInfo, accountPair, balanceOf, externalAccount, individual, accountOf, fund } from "../fixtures.js";
import { check, enc } from "./define.js";
const SANDBOX = 'sandbox guide: the last 3 digits of the external account choose the outcome';
export const transferOut = (t, from, to, amount, extra = {}) => t.call('POST', '/transfer-out', { body: { source: { accountId: from }, destination: { accountId: to, ...extra }, amount }, key: t.key() });
export const transferIn = (t, from, to, amount) => t.call('POST', '/transfer-in', { body: { source: { accountId: from }, destination: { accountId: to }, amount }, key: t.key() });
export const created = (t, reply, rule = 'a transfer is answered 201 with its transaction (createTransferOut, createTransferIn)') => t.expect(reply, 201, rule);
export const getTransaction = async (t, id) => t.expect(await t.call('GET', `/transactions/${enc(id)}`), 200, 'getTransaction answers 200');
/** Waits for a transaction to reach `status`, failing with the last status seen. */
export async function inStatus(t, id, status, timeoutMs, rule) {
    const { value, met } = await t.poll(() => getTransaction(t, id), (tx) => tx.status === status, timeoutMs);
    t.is.ok(met, rule, `${status} within ${Math.round(timeoutMs / 1000)} s`, () => `still ${value.status}`);
    return value;
}
/** Nothing moved: the balance is as before and no transfer to or from the external account is listed. */
async function nothingRecorded(t, internalId, externalId, balance) {
    t.is.equal(await balanceOf(t, internalId), balance, 'a refused transfer moves no money (errors guide: INSUFFICIENT_FUNDS… nothing was recorded)');
    const listed = t.expect(await t.call('GET', '/transactions', { query: { accountId: externalId } }), 200, 'listTransactions answers 200');
    t.is.equal(listed.totalCount, 0, 'a refused transfer records no transaction');
}
export function transferChecks() {
    const needs = ['state', 'sandbox'];
    return [
        check('transfers.out.completed', { operations: ['createTransferOut', 'getTransaction', 'listTransactions'], status: 201, rule: `a transfer-out to the customer's own bank account (any other ending) is COMPLETED, debited to the minor unit, and reads back the same (${SANDBOX})`, needs: [...needs], tags: ['transfers'] }, async (t) => {
            const { internal, external, customerId } = await accountPair(t, '000', 100_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 12_550, {}));
            t.is.contains(tx, { type: 'OUTGOING', direction: 'DEBIT', status: 'COMPLETED', customerId, source: { accountId: internal.id, currency: 'USD' }, destination: { accountId: external.id, currency: 'USD' }, sentAmount: { amount: 12_550 } }, 'the transaction is the transfer as sent (spec: OutgoingTransaction)');
            t.is.equal(await balanceOf(t, internal.id), 100_000 - 12_550, 'a COMPLETED transfer-out debits its amount exactly');
            t.is.equal(await getTransaction(t, tx.id), tx, 'getTransaction answers the transaction as created');
            const listed = t.expect(await t.call('GET', '/transactions', { query: { accountId: external.id } }), 200, 'listTransactions answers 200');
            t.is.equal(listed.data, [tx], 'listTransactions by accountId finds it, as GET answers it');
        }),
        check('transfers.in.completed', { operations: ['createTransferIn'], status: 201, rule: `a transfer-in from the customer's own bank account is COMPLETED and credited to the minor unit (${SANDBOX})`, needs: [...needs], tags: ['transfers'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 1_000);
            const tx = created(t, await transferIn(t, external.id, internal.id, 4_321));
            t.is.contains(tx, { type: 'INCOMING', direction: 'CREDIT', status: 'COMPLETED', source: { accountId: external.id }, destination: { accountId: internal.id }, receivedAmount: { amount: 4_321 } }, 'the transaction is the transfer as sent (spec: IncomingTransaction)');
            t.is.equal(await balanceOf(t, internal.id), 5_321, 'a COMPLETED transfer-in credits its amount exactly');
        }),
        check('transfers.out.failed-at-once', { operations: ['createTransferOut'], status: 201, rule: `an external account ending in 002 fails at once with INSUFFICIENT_FUNDS, 003 with ACCOUNT_CLOSED; nothing is debited (${SANDBOX})`, needs: [...needs], tags: ['transfers', 'sandbox-outcomes'] }, async (t) => {
            for (const [suffix, failureReason] of [['002', 'INSUFFICIENT_FUNDS'], ['003', 'ACCOUNT_CLOSED']]) {
                const { internal, external } = await accountPair(t, suffix, 50_000);
                const tx = created(t, await transferOut(t, internal.id, external.id, 20_000));
                t.is.contains(tx, { status: 'FAILED', failureReason }, `suffix ${suffix}: FAILED with ${failureReason} (${SANDBOX})`);
                t.is.equal(await balanceOf(t, internal.id), 50_000, `suffix ${suffix}: a failed transfer-out debits nothing`);
            }
        }),
        check('transfers.in.failed-at-once', { operations: ['createTransferIn'], status: 201, rule: `a transfer-in from an account ending in 002 or 003 fails at once; nothing is credited (${SANDBOX})`, needs: [...needs], tags: ['transfers', 'sandbox-outcomes'] }, async (t) => {
            for (const [suffix, failureReason] of [['002', 'INSUFFICIENT_FUNDS'], ['003', 'ACCOUNT_CLOSED']]) {
                const { internal, external } = await accountPair(t, suffix, 5_000);
                const tx = created(t, await transferIn(t, external.id, internal.id, 20_000));
                t.is.contains(tx, { status: 'FAILED', failureReason, receivedAmount: { amount: 0 } }, `suffix ${suffix}: FAILED with ${failureReason}, nothing received (${SANDBOX})`);
                t.is.equal(await balanceOf(t, internal.id), 5_000, `suffix ${suffix}: a failed transfer-in credits nothing`);
            }
        }),
        check('transfers.out.004-fails-later', { operations: ['createTransferOut', 'getTransaction'], status: 201, rule: `an external account ending in 004: PROCESSING and debited, then FAILED with BANK_REJECTED a few seconds later and credited back once (${SANDBOX})`, needs: [...needs, 'slow'], tags: ['transfers', 'sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { internal, external } = await accountPair(t, '004', 50_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 20_000));
            t.is.contains(tx, { status: 'PROCESSING' }, `suffix 004: PROCESSING at first (${SANDBOX})`);
            t.is.equal(await balanceOf(t, internal.id), 30_000, 'a PROCESSING transfer-out holds its amount');
            const failed = await inStatus(t, tx.id, 'FAILED', t.outcomeWaitMs, `suffix 004: FAILED a few seconds later (${SANDBOX}; --outcome-wait bounds the wait)`);
            t.is.contains(failed, { failureReason: 'BANK_REJECTED', createdAt: tx.createdAt }, 'the failure says BANK_REJECTED');
            t.is.equal(await balanceOf(t, internal.id), 50_000, 'a failed transfer-out gives the amount back');
            await new Promise((r) => setTimeout(r, 1_000));
            t.is.equal(await balanceOf(t, internal.id), 50_000, 'the amount comes back once');
        }),
        check('transfers.in.004-fails-later', { operations: ['createTransferIn', 'getTransaction'], status: 201, rule: `a transfer-in from an account ending in 004: PROCESSING, nothing credited, then FAILED with BANK_REJECTED a few seconds later (${SANDBOX})`, needs: [...needs, 'slow'], tags: ['transfers', 'sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { internal, external } = await accountPair(t, '004', 5_000);
            const tx = created(t, await transferIn(t, external.id, internal.id, 20_000));
            t.is.contains(tx, { status: 'PROCESSING' }, `suffix 004: PROCESSING at first (${SANDBOX})`);
            t.is.equal(await balanceOf(t, internal.id), 5_000, 'nothing is credited before a transfer-in completes');
            const failed = await inStatus(t, tx.id, 'FAILED', t.outcomeWaitMs, `suffix 004: FAILED a few seconds later (${SANDBOX}; --outcome-wait bounds the wait)`);
            t.is.contains(failed, { failureReason: 'BANK_REJECTED', receivedAmount: { amount: 0 } }, 'the failure says BANK_REJECTED, nothing received');
            t.is.equal(await balanceOf(t, internal.id), 5_000, 'a failed transfer-in credits nothing');
        }),
        check('transfers.out.005-pending', { operations: ['createTransferOut', 'getTransaction'], status: 201, rule: `an external account ending in 005: PENDING and debited (${SANDBOX})`, needs: [...needs], tags: ['transfers', 'sandbox-outcomes'] }, async (t) => {
            const { internal, external } = await accountPair(t, '005', 50_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 20_000));
            t.is.contains(tx, { status: 'PENDING' }, `suffix 005: PENDING (${SANDBOX})`);
            t.is.ok(!('failureReason' in tx) && !('settledAt' in tx), 'a PENDING transaction has no failureReason and no settledAt (spec: Transaction)', 'neither', () => JSON.stringify(tx));
            t.is.equal(await getTransaction(t, tx.id), tx, 'getTransaction answers the transaction as created');
            t.is.equal(await balanceOf(t, internal.id), 30_000, 'a PENDING transfer-out holds its amount');
        }),
        check('transfers.out.005-fails-after-30-s', { operations: ['createTransferOut', 'getTransaction'], status: 201, rule: `an external account ending in 005: PENDING for about 30 seconds, then FAILED (BANK_REJECTED), the amount given back (${SANDBOX})`, needs: [...needs, 'slow'], tags: ['transfers', 'sandbox-outcomes'], timeoutMs: 150_000 }, async (t) => {
            const { internal, external } = await accountPair(t, '005', 50_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 20_000));
            const failed = await inStatus(t, tx.id, 'FAILED', 30_000 + t.outcomeWaitMs * 3, `suffix 005: FAILED about 30 seconds later (${SANDBOX})`);
            t.is.contains(failed, { failureReason: 'BANK_REJECTED' }, 'the failure says BANK_REJECTED');
            t.is.equal(await balanceOf(t, internal.id), 50_000, 'a failed transfer-out gives the amount back');
        }),
        check('transfers.in.005-pending', { operations: ['createTransferIn'], status: 201, rule: `a transfer-in from an account ending in 005: PENDING, nothing credited (${SANDBOX})`, needs: [...needs], tags: ['transfers', 'sandbox-outcomes'] }, async (t) => {
            const { internal, external } = await accountPair(t, '005', 5_000);
            const tx = created(t, await transferIn(t, external.id, internal.id, 20_000));
            t.is.contains(tx, { status: 'PENDING' }, `suffix 005: PENDING (${SANDBOX})`);
            t.is.equal(await balanceOf(t, internal.id), 5_000, 'nothing is credited before a transfer-in completes');
        }),
        check('transfers.out.other-currencies', { operations: ['createTransferOut'], status: 201, rule: `the outcome suffix is read from an IBAN, a CLABE or a wallet address too; each currency goes on its own rail (${SANDBOX}; PaymentRail)`, needs: [...needs], tags: ['transfers', 'sandbox-outcomes'] }, async (t) => {
            const cases = [
                ['EUR', accountInfo.eur('000'), 'COMPLETED', 'SEPA'],
                ['EUR', accountInfo.eur('003'), 'FAILED', undefined],
                ['MXN', accountInfo.mxn('000'), 'COMPLETED', 'SPEI'],
                ['BTC', accountInfo.spark('002'), 'FAILED', undefined],
            ];
            for (const [currency, info, status, rail] of cases) {
                const customer = await individual(t, { currencies: [currency] });
                const internal = await fund(t, (await accountOf(t, customer.id, currency)).id, 10_000);
                const external = await externalAccount(t, customer.id, currency, info);
                const tx = created(t, await transferOut(t, internal.id, external.id, 2_500));
                t.is.contains(tx, { status, ...(rail === undefined ? {} : { paymentRail: rail }) }, `${currency} to ${JSON.stringify(info).slice(0, 60)}…: ${status}`);
                t.is.equal(await balanceOf(t, internal.id), status === 'FAILED' ? 10_000 : 7_500, `${currency}: debited only when not failed`);
            }
        }),
        check('transfers.out.rails', { operations: ['createTransferOut'], status: 201, rule: 'a USD account receives on the rail asked for (WIRE, RTP…), which the transaction shows; a rail of another currency is 400 INVALID_INPUT (spec: PaymentRail of the destination)', needs: [...needs], tags: ['transfers'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 10_000);
            const tx = created(t, await transferOut(t, internal.id, external.id, 1_000, { paymentRail: 'WIRE' }));
            t.is.contains(tx, { status: 'COMPLETED', paymentRail: 'WIRE' }, 'the transfer goes on the rail asked for');
            t.expectError(await transferOut(t, internal.id, external.id, 1_000, { paymentRail: 'SEPA' }), 400, 'INVALID_INPUT', 'a USD account cannot receive on SEPA');
            t.is.equal(await balanceOf(t, internal.id), 9_000, 'the refused transfer moved nothing');
        }),
        check('transfers.out.400-insufficient-funds', { operations: ['createTransferOut'], status: 400, rule: 'a balance below the amount is 400 INSUFFICIENT_FUNDS; nothing is recorded (errors guide)', needs: [...needs], tags: ['transfers'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 1_000);
            t.expectError(await transferOut(t, internal.id, external.id, 1_001), 400, 'INSUFFICIENT_FUNDS', 'a transfer-out never overdraws');
            await nothingRecorded(t, internal.id, external.id, 1_000);
        }),
        check('transfers.out.400-currency-mismatch', { operations: ['createTransferOut', 'createTransferIn'], status: 400, rule: 'accounts in different currencies are 400 CURRENCY_MISMATCH; nothing is recorded (errors guide)', needs: [...needs], tags: ['transfers'] }, async (t) => {
            const customer = await individual(t, { currencies: ['USD', 'EUR'] });
            const usd = await fund(t, (await accountOf(t, customer.id, 'USD')).id, 10_000);
            const eurBank = await externalAccount(t, customer.id, 'EUR', accountInfo.eur());
            t.expectError(await transferOut(t, usd.id, eurBank.id, 1_000), 400, 'CURRENCY_MISMATCH', 'a USD balance cannot go to a EUR account');
            t.expectError(await transferIn(t, eurBank.id, usd.id, 1_000), 400, 'CURRENCY_MISMATCH', 'a EUR account cannot pay into a USD balance');
            await nothingRecorded(t, usd.id, eurBank.id, 10_000);
        }),
        check('transfers.out.400-owner-mismatch', { operations: ['createTransferOut', 'createTransferIn'], status: 400, rule: "a transfer between one customer's balance and another customer's bank account is 400 ACCOUNT_OWNER_MISMATCH (errors guide)", needs: [...needs], tags: ['transfers'] }, async (t) => {
            const a = await accountPair(t, '000', 10_000);
            const b = await accountPair(t, '000', 10_000);
            t.expectError(await transferOut(t, a.internal.id, b.external.id, 1_000), 400, 'ACCOUNT_OWNER_MISMATCH', "a customer's money goes only to their own accounts");
            t.expectError(await transferIn(t, b.external.id, a.internal.id, 1_000), 400, 'ACCOUNT_OWNER_MISMATCH', "a customer's balance is filled only from their own accounts");
            await nothingRecorded(t, a.internal.id, b.external.id, 10_000);
        }),
        check('transfers.out.400-not-active', { operations: ['createTransferOut', 'deleteCustomerExternalAccount'], status: 400, rule: 'a deleted external account is no longer ACTIVE: a transfer to it is 400 ACCOUNT_NOT_ACTIVE (errors guide)', needs: [...needs], tags: ['transfers'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 10_000);
            t.expect(await t.call('DELETE', `/customers/external-accounts/${enc(external.id)}`), 204, 'deleteCustomerExternalAccount answers 204');
            t.expectError(await transferOut(t, internal.id, external.id, 1_000), 400, 'ACCOUNT_NOT_ACTIVE', 'no transfer to a deleted account');
            await nothingRecorded(t, internal.id, external.id, 10_000);
        }),
        check('transfers.out.404-accounts', { operations: ['createTransferOut'], status: 404, rule: 'an unknown internal account is 404 INTERNAL_ACCOUNT_NOT_FOUND, an unknown external account 404 EXTERNAL_ACCOUNT_NOT_FOUND (errors guide)', needs: [...needs], tags: ['transfers', 'not-found'] }, async (t) => {
            const { internal, external } = await accountPair(t, '000', 10_000);
            t.expectError(await transferOut(t, 'InternalAccount:019542f5-b3e7-1d02-0000-0000000000ff', external.id, 1_000), 404, 'INTERNAL_ACCOUNT_NOT_FOUND', 'the source must exist');
            t.expectError(await transferOut(t, internal.id, 'ExternalAccount:019542f5-b3e7-1d02-0000-0000000000ff', 1_000), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND', 'the destination must exist');
            await nothingRecorded(t, internal.id, external.id, 10_000);
        }),
    ];
}
