// Cross-currency quotes and UMA: a quote locks its side exactly, executing it debits the source once,
// the sandbox outcomes by the destination's suffix and by the sandbox's UMA addresses, receiver
// lookups, real-time funding paid with POST /sandbox/send, an UMA payment received with
// POST /sandbox/uma/receive, and the exchange rates and bank lists.
import { CheckFailure } from "../check.js";
import { accountInfo, accountOf, balanceOf, externalAccount, fund, individual } from "../fixtures.js";
import { check, enc } from "./define.js";
import { getTransaction, inStatus } from "./transfers.js";
import { offersClock, undisturbed } from "../time.js";
const SANDBOX = 'sandbox guide';
/** A customer holding USD (funded with `funding`), EUR and MXN. */
async function usdEur(t, funding) {
    const customer = await individual(t, { currencies: ['USD', 'EUR', 'MXN'] });
    const usd = await accountOf(t, customer.id, 'USD');
    const eur = await accountOf(t, customer.id, 'EUR');
    if (funding > 0)
        await fund(t, usd.id, funding);
    return { customer, usd, eur };
}
const toAccount = (from, to, amount, side = 'SENDING') => ({
    source: { sourceType: 'ACCOUNT', accountId: from },
    destination: { destinationType: 'ACCOUNT', accountId: to },
    lockedCurrencySide: side,
    lockedCurrencyAmount: amount,
});
const postQuote = (t, body) => t.call('POST', '/quotes', { body, key: t.key() });
const createQuote = async (t, body) => t.expect(await postQuote(t, body), 201, 'a created quote is answered 201 (createQuote)');
const execute = (t, quoteId, key = t.key()) => t.call('POST', `/quotes/${enc(quoteId)}/execute`, { key });
const getQuote = async (t, quoteId) => t.expect(await t.call('GET', `/quotes/${enc(quoteId)}`), 200, 'getQuote answers 200');
const lookup = async (t, address, customerId) => t.expect(await t.call('GET', `/receiver/uma/${enc(address)}`, { query: { customerId } }), 200, `a receiver lookup of ${address} answers 200 (lookupUmaReceiver; sandbox guide: the sandbox's UMA addresses)`);
/** The rounding rule of RateDetails, on a quote's own numbers. */
function consistent(t, quote) {
    const d = quote.rateDetails;
    if (d === undefined)
        throw new CheckFailure('a quote has its rateDetails (spec: Quote)', 'rateDetails', 'none');
    t.is.equal(quote.feesIncluded, d.serviceApiFixedFee + d.serviceApiVariableFeeAmount, 'feesIncluded is the fixed fee plus the variable fee (spec: RateDetails)');
    t.is.equal(d.serviceApiVariableFeeAmount, Math.floor((quote.totalSendingAmount * Math.round(d.serviceApiVariableFeeRate * 10_000)) / 10_000), 'the variable fee is the rate of the sending amount, rounded down to the minor unit (spec: RateDetails)');
    const rate = (quote.totalSendingAmount - quote.feesIncluded) / quote.totalReceivingAmount;
    t.is.ok(Math.abs(quote.exchangeRate - rate) < 1e-6, 'exchangeRate is what is converted, fees excluded, per unit received (spec: RateDetails)', `${rate}`, () => `${quote.exchangeRate}`);
}
export function quoteChecks() {
    const needs = ['state', 'sandbox'];
    const outcomes = [
        ['000', 'COMPLETED', null, false],
        ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', true],
        ['004', 'FAILED', 'COUNTERPARTY_DELIVERY_FAILED', true],
        ['006', 'FAILED', 'USER_CANCELLED', true],
        ['007', 'FAILED', 'REFUND_FAILED', false],
    ];
    return [
        check('quotes.create', { operations: ['createQuote', 'getQuote'], status: 201, rule: 'a quote is PENDING, locks the side asked for exactly, expires 5 minutes after it was made, follows the rounding rule, and reads back the same (createQuote, RateDetails)', needs: ['state'] }, async (t) => {
            const { customer, usd, eur } = await usdEur(t, 0);
            const quote = await createQuote(t, { ...toAccount(usd.id, eur.id, 30_000), description: 'Travel money' });
            t.is.contains(quote, { status: 'PENDING', source: { sourceType: 'ACCOUNT', accountId: usd.id, customerId: customer.id }, destination: { destinationType: 'ACCOUNT', accountId: eur.id }, sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'EUR' }, totalSendingAmount: 30_000, description: 'Travel money' }, 'the quote is what was asked for');
            t.is.equal(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt), 5 * 60_000, 'a quote locks its terms for 5 minutes (createQuote)');
            consistent(t, quote);
            t.is.equal(await getQuote(t, quote.id), quote, 'getQuote answers the quote as created');
            const receiving = await createQuote(t, toAccount(usd.id, eur.id, 10_000, 'RECEIVING'));
            t.is.equal(receiving.totalReceivingAmount, 10_000, 'lockedCurrencySide RECEIVING locks the amount received');
            consistent(t, receiving);
        }),
        check('quotes.execute', { operations: ['executeQuote', 'getTransaction'], status: 200, rule: 'executing a quote between internal accounts debits the source and credits the destination at once, exactly once; a second execution is 409 QUOTE_NOT_PENDING (executeQuote)', needs: [...needs] }, async (t) => {
            const { usd, eur } = await usdEur(t, 100_000);
            const quote = await createQuote(t, toAccount(usd.id, eur.id, 30_000));
            const executed = t.expect(await execute(t, quote.id), 200, 'executeQuote answers 200 with the quote');
            t.is.contains(executed, { id: quote.id, status: 'COMPLETED', totalSendingAmount: 30_000, totalReceivingAmount: quote.totalReceivingAmount }, 'the quote executes at its locked terms');
            t.is.equal(await balanceOf(t, usd.id), 70_000, 'the source is debited the sending amount');
            t.is.equal(await balanceOf(t, eur.id), quote.totalReceivingAmount, 'the destination is credited the receiving amount');
            const tx = await getTransaction(t, executed.transactionId ?? '');
            t.is.contains(tx, { type: 'OUTGOING', status: 'COMPLETED', quoteId: quote.id, sentAmount: { amount: 30_000 }, receivedAmount: { amount: quote.totalReceivingAmount }, fees: quote.feesIncluded }, "the quote's transaction");
            t.expectError(await execute(t, quote.id), 409, 'QUOTE_NOT_PENDING', 'a quote executes once');
            t.is.equal(await balanceOf(t, usd.id), 70_000, 'a refused execution moves nothing');
        }),
        check('quotes.immediately-execute', { operations: ['createQuote'], status: 201, rule: 'immediatelyExecute creates and executes in one call; without the funds it is 400 INSUFFICIENT_FUNDS and nothing is recorded (createQuote)', needs: [...needs] }, async (t) => {
            const { usd, eur } = await usdEur(t, 50_000);
            const quote = await createQuote(t, { ...toAccount(usd.id, eur.id, 20_000), immediatelyExecute: true });
            t.is.contains(quote, { status: 'COMPLETED' }, 'the quote is executed');
            t.is.equal(await balanceOf(t, usd.id), 30_000, 'the source is debited');
            t.expectError(await postQuote(t, { ...toAccount(usd.id, eur.id, 40_000), immediatelyExecute: true }), 400, 'INSUFFICIENT_FUNDS', 'immediatelyExecute needs the funds');
            t.is.equal(await balanceOf(t, usd.id), 30_000, 'the refused quote moved nothing');
        }),
        check('quotes.execute.400-insufficient-funds', { operations: ['executeQuote'], status: 400, rule: 'executing without the funds is 400 INSUFFICIENT_FUNDS and leaves the quote PENDING, to be executed once funded (executeQuote)', needs: [...needs] }, async (t) => {
            const { usd, eur } = await usdEur(t, 1_000);
            const quote = await createQuote(t, toAccount(usd.id, eur.id, 5_000));
            t.expectError(await execute(t, quote.id), 400, 'INSUFFICIENT_FUNDS', 'no execution without the funds');
            t.is.equal((await getQuote(t, quote.id)).status, 'PENDING', 'the refused quote stays PENDING');
            await fund(t, usd.id, 4_000);
            t.is.equal(t.expect(await execute(t, quote.id), 200, 'executeQuote answers 200').status, 'COMPLETED', 'a funded quote executes');
        }),
        check('quotes.create.400-404', { operations: ['createQuote'], status: 404, rule: 'an unknown account is 404 INTERNAL_ACCOUNT_NOT_FOUND; another customer\'s account as destination is 400 ACCOUNT_OWNER_MISMATCH; an amount that does not cover the fees is 400 INVALID_AMOUNT (errors guide)', needs: ['state'] }, async (t) => {
            const { customer, usd } = await usdEur(t, 0);
            t.expectError(await postQuote(t, toAccount(usd.id, 'InternalAccount:019542f5-b3e7-1d02-0000-0000000000ff', 1_000)), 404, 'INTERNAL_ACCOUNT_NOT_FOUND', 'the destination must exist');
            const other = await individual(t, { currencies: ['EUR'] });
            const theirs = await externalAccount(t, other.id, 'EUR', accountInfo.eur());
            t.expectError(await postQuote(t, toAccount(usd.id, theirs.id, 1_000)), 400, 'ACCOUNT_OWNER_MISMATCH', "a quote pays only the customer's own accounts or an UMA address");
            const mxn = await accountOf(t, customer.id, 'MXN');
            t.expectError(await postQuote(t, toAccount(usd.id, mxn.id, 10)), 400, 'INVALID_AMOUNT', 'an amount must cover the fees');
        }),
        ...outcomes.map(([suffix, ends, reason, creditedBack]) => check(`quotes.outcome-${suffix}`, { operations: ['executeQuote', 'getTransaction', 'getQuote'], status: 200, rule: `a quote to an external account ending in ${suffix}: PROCESSING, then ${ends}${reason === null ? '' : ` (${reason})`} a few seconds later; the source ${creditedBack ? 'gets the amount back' : 'stays debited'} (${SANDBOX}; executeQuote)`, needs: [...needs, 'slow'], tags: ['sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { customer, usd } = await usdEur(t, 50_000);
            const external = await externalAccount(t, customer.id, 'EUR', accountInfo.eur(suffix));
            const quote = await createQuote(t, toAccount(usd.id, external.id, 10_000));
            t.is.contains(quote.destination, { destinationType: 'ACCOUNT', accountId: external.id }, 'the quote pays the external account');
            const executed = t.expect(await execute(t, quote.id), 200, 'executeQuote answers 200');
            t.is.equal(executed.status, 'PROCESSING', 'a payout to an external account is PROCESSING at first');
            t.is.equal(await balanceOf(t, usd.id), 40_000, 'the source is debited at execution');
            const tx = await inStatus(t, executed.transactionId ?? '', ends, t.outcomeWaitMs, `suffix ${suffix}: ${ends} a few seconds after execution (${SANDBOX}; --outcome-wait bounds the wait)`);
            t.is.equal(tx.failureReason ?? null, reason, `suffix ${suffix}: failureReason ${reason}`);
            t.is.equal((await getQuote(t, quote.id)).status, ends, 'the quote ends as its transaction');
            t.is.equal(await balanceOf(t, usd.id), creditedBack ? 50_000 : 40_000, creditedBack ? 'a failed payout gives the amount back' : `suffix ${suffix}: the source stays debited`);
        })),
        check('quotes.outcome-003-processing', { operations: ['executeQuote'], status: 200, rule: `a quote to an external account ending in 003 stays PROCESSING (it completes after about 6 minutes) (${SANDBOX})`, needs: [...needs, 'slow'], tags: ['sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { customer, usd } = await usdEur(t, 50_000);
            const external = await externalAccount(t, customer.id, 'EUR', accountInfo.eur('003'));
            const executed = t.expect(await execute(t, (await createQuote(t, toAccount(usd.id, external.id, 10_000))).id), 200, 'executeQuote answers 200');
            await new Promise((r) => setTimeout(r, Math.min(t.outcomeWaitMs, 8_000)));
            t.is.equal((await getTransaction(t, executed.transactionId ?? '')).status, 'PROCESSING', 'suffix 003: still PROCESSING seconds after execution');
        }),
        check('quotes.outcome-003-completes', { operations: ['executeQuote'], status: 200, rule: `a quote to an external account ending in 003 is COMPLETED after about 6 minutes (${SANDBOX})`, needs: [...needs, 'minutes'], tags: ['sandbox-outcomes'], timeoutMs: 12 * 60_000 }, async (t) => {
            const executed = async () => {
                const { customer, usd } = await usdEur(t, 50_000);
                const external = await externalAccount(t, customer.id, 'EUR', accountInfo.eur('003'));
                return t.expect(await execute(t, (await createQuote(t, toAccount(usd.id, external.id, 10_000))).id), 200, 'executeQuote answers 200');
            };
            if (!(await offersClock(t))) {
                await inStatus(t, (await executed()).transactionId ?? '', 'COMPLETED', 10 * 60_000, `suffix 003: COMPLETED about 6 minutes later (${SANDBOX})`);
                return;
            }
            // Five minutes on it is still under way; past six it has completed, when the advance answers.
            await undisturbed(t, async (advance) => {
                const tx = (await executed()).transactionId ?? '';
                await advance(5 * 60);
                t.is.equal((await getTransaction(t, tx)).status, 'PROCESSING', `suffix 003: still PROCESSING 5 minutes after execution (${SANDBOX})`);
                await advance(90);
                await inStatus(t, tx, 'COMPLETED', t.outcomeWaitMs, `suffix 003: COMPLETED about 6 minutes later (${SANDBOX})`);
            });
        }),
        check('quotes.outcome-005-returned', { operations: ['executeQuote'], status: 200, rule: `a quote to an external account ending in 005 completes, then the payment is returned: FAILED (PAYMENT_RETURNED), the amount given back (${SANDBOX})`, needs: [...needs, 'slow'], tags: ['sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { customer, usd } = await usdEur(t, 50_000);
            const external = await externalAccount(t, customer.id, 'EUR', accountInfo.eur('005'));
            const executed = t.expect(await execute(t, (await createQuote(t, toAccount(usd.id, external.id, 10_000))).id), 200, 'executeQuote answers 200');
            const tx = await inStatus(t, executed.transactionId ?? '', 'FAILED', t.outcomeWaitMs * 2, `suffix 005: COMPLETED then FAILED, seconds apart (${SANDBOX})`);
            t.is.equal(tx.failureReason, 'PAYMENT_RETURNED', 'a returned payment says PAYMENT_RETURNED');
            t.is.equal(await balanceOf(t, usd.id), 50_000, 'a returned payment gives the amount back');
        }),
        check('quotes.uma', { operations: ['lookupUmaReceiver', 'createQuote', 'executeQuote'], status: 201, rule: 'paying an UMA address takes a receiver lookup (400 LOOKUP_REQUIRED without) and the sender data it requires (400 MISSING_PAYER_DATA with details.missingFields); $success.mxn@sandbox.uma.money then completes (sandbox guide; createQuote)', needs: [...needs, 'slow'], tags: ['uma'], timeoutMs: 120_000 }, async (t) => {
            const { customer, usd } = await usdEur(t, 50_000);
            const address = '$success.mxn@sandbox.uma.money';
            const found = await lookup(t, address, customer.id);
            t.is.contains(found, { receiverUmaAddress: address }, 'the lookup names the receiver');
            t.is.ok(found.supportedCurrencies.some((c) => c.currency.code === 'MXN'), '$success.mxn receives MXN (sandbox guide)', 'MXN among supportedCurrencies', () => JSON.stringify(found.supportedCurrencies));
            const body = { source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, lookupId: found.lookupId };
            const without = await postQuote(t, body);
            t.expectError(without, 400, 'MISSING_PAYER_DATA', 'the receiver\'s required sender fields must be sent');
            const missing = without.body.details?.missingFields ?? [];
            t.is.ok(missing.length > 0, 'MISSING_PAYER_DATA lists details.missingFields (errors guide)', 'the missing fields', () => JSON.stringify(missing), without);
            // Every field the lookup listed, mandatory or not (spec: senderCustomerInfo).
            const partial = { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-04-21' };
            t.expectError(await postQuote(t, { ...body, senderCustomerInfo: partial }), 400, 'MISSING_PAYER_DATA', 'every field of requiredPayerDataFields is needed, NATIONALITY too (spec: senderCustomerInfo)');
            const senderCustomerInfo = { ...partial, NATIONALITY: 'US' };
            t.expectError(await postQuote(t, { ...body, lookupId: undefined, senderCustomerInfo }), 400, 'LOOKUP_REQUIRED', 'a quote to an UMA address needs the lookupId');
            const quote = await createQuote(t, { ...body, senderCustomerInfo });
            t.is.contains(quote.destination, { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'MXN' }, 'the quote pays the UMA address in its currency');
            consistent(t, quote);
            const executed = t.expect(await execute(t, quote.id), 200, 'executeQuote answers 200');
            await inStatus(t, executed.transactionId ?? '', 'COMPLETED', t.outcomeWaitMs, `a payment to ${address} completes (sandbox guide)`);
            t.is.equal(await balanceOf(t, usd.id), 40_000, 'the source is debited once');
        }),
        check('quotes.uma.compliance', { operations: ['createQuote'], status: 201, rule: '$fail.compliance.usd@sandbox.uma.money: the payment FAILS with COMPLIANCE_REJECTED and the amount comes back (sandbox guide)', needs: [...needs, 'slow'], tags: ['uma', 'sandbox-outcomes'], timeoutMs: 120_000 }, async (t) => {
            const { customer, usd } = await usdEur(t, 20_000);
            const address = '$fail.compliance.usd@sandbox.uma.money';
            const found = await lookup(t, address, customer.id);
            const quote = await createQuote(t, { source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, lookupId: found.lookupId, senderCustomerInfo: { FULL_NAME: 'Jane Doe' }, immediatelyExecute: true });
            const tx = await inStatus(t, quote.transactionId ?? '', 'FAILED', t.outcomeWaitMs, `a payment to ${address} fails (sandbox guide)`);
            t.is.equal(tx.failureReason, 'COMPLIANCE_REJECTED', 'the failure says COMPLIANCE_REJECTED');
            t.is.equal(await balanceOf(t, usd.id), 20_000, 'the amount comes back');
        }),
        check('quotes.uma.pending-long', { operations: ['createQuote'], status: 201, rule: '$pending.long.usd@sandbox.uma.money: payments stay PROCESSING (sandbox guide)', needs: [...needs], tags: ['uma', 'sandbox-outcomes'] }, async (t) => {
            const { customer, usd } = await usdEur(t, 20_000);
            const address = '$pending.long.usd@sandbox.uma.money';
            const found = await lookup(t, address, customer.id);
            const quote = await createQuote(t, { source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, lookupId: found.lookupId, senderCustomerInfo: { FULL_NAME: 'Jane Doe' }, immediatelyExecute: true });
            t.is.equal(quote.status, 'PROCESSING', `a payment to ${address} is PROCESSING`);
            await new Promise((r) => setTimeout(r, 3_000));
            t.is.equal((await getTransaction(t, quote.transactionId ?? '')).status, 'PROCESSING', `a payment to ${address} stays PROCESSING`);
        }),
        check('quotes.uma.lookups', { operations: ['lookupUmaReceiver'], status: 404, rule: 'any other address at sandbox.uma.money is 404 UMA_NOT_FOUND; the sender is named by customerId or senderUmaAddress, exactly one (sandbox guide; lookupUmaReceiver)', needs: [...needs], tags: ['uma'] }, async (t) => {
            const { customer } = await usdEur(t, 0);
            const path = (address) => `/receiver/uma/${enc(address)}`;
            t.expectError(await t.call('GET', path('$nobody.conformance@sandbox.uma.money'), { query: { customerId: customer.id } }), 404, 'UMA_NOT_FOUND', 'an address the sandbox does not have');
            for (const address of ['$success.usd@sandbox.uma.money', '$success.eur@sandbox.uma.money', '$pending.long.usd@sandbox.uma.money'])
                await lookup(t, address, customer.id);
            t.expect(await t.call('GET', path('$success.usd@sandbox.uma.money'), { query: { senderUmaAddress: customer.umaAddress } }), 200, 'the sender may be named by its UMA address');
            t.expectError(await t.call('GET', path('$success.usd@sandbox.uma.money')), 400, 'INVALID_INPUT', 'the sender must be named');
            t.expectError(await t.call('GET', path('$success.usd@sandbox.uma.money'), { query: { customerId: customer.id, senderUmaAddress: customer.umaAddress } }), 400, 'INVALID_INPUT', 'the sender is named once');
        }),
        check('quotes.external-account-lookup', { operations: ['lookupExternalAccountReceiver'], status: 200, rule: 'an external-account lookup names the account, its currency and the sender fields its rail needs (lookupExternalAccountReceiver)', needs: ['state'] }, async (t) => {
            const customer = await individual(t, { currencies: ['EUR'] });
            const external = await externalAccount(t, customer.id, 'EUR', accountInfo.eur());
            const found = t.expect(await t.call('GET', `/receiver/external-account/${enc(external.id)}`, { query: { customerId: customer.id } }), 200, 'lookupExternalAccountReceiver answers 200');
            t.is.contains(found, { accountId: external.id }, 'the lookup names the account');
            t.is.ok(found.supportedCurrencies.some((c) => c.currency.code === 'EUR'), 'the lookup names the account\'s currency', 'EUR', () => JSON.stringify(found.supportedCurrencies));
        }),
        check('quotes.realtime-funding', { operations: ['createQuote', 'sendSandboxPayment', 'getQuote'], status: 200, rule: 'a REALTIME_FUNDING quote carries payment instructions and a PENDING transaction; POST /sandbox/send pays it (409 a second time, 400 CURRENCY_MISMATCH in another currency) and it completes (sandbox guide; sendSandboxPayment)', needs: [...needs, 'slow'], tags: ['uma', 'sandbox'], timeoutMs: 120_000 }, async (t) => {
            const { customer } = await usdEur(t, 0);
            const found = await lookup(t, '$success.eur@sandbox.uma.money', customer.id);
            const quote = await createQuote(t, { source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money', currency: 'EUR' }, lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 5_000, lookupId: found.lookupId, senderCustomerInfo: { FULL_NAME: 'Jane Doe' } });
            t.is.equal(quote.totalReceivingAmount, 5_000, 'the receiving side is locked');
            t.is.ok((quote.paymentInstructions ?? []).length > 0, 'a real-time-funded quote says how to pay it (spec: Quote.paymentInstructions)', 'paymentInstructions', () => 'none');
            t.is.equal((await getTransaction(t, quote.transactionId ?? '')).status, 'PENDING', 'its transaction waits for the funds');
            t.expectError(await t.call('POST', '/sandbox/send', { body: { quoteId: quote.id, currencyCode: 'EUR' }, key: t.key() }), 400, 'CURRENCY_MISMATCH', 'the funds come in the sending currency');
            const paid = t.expect(await t.call('POST', '/sandbox/send', { body: { quoteId: quote.id, currencyCode: 'USD' }, key: t.key() }), 200, 'sendSandboxPayment answers 200 with the transaction');
            t.is.contains(paid, { id: quote.transactionId, status: 'PROCESSING' }, 'paying starts the payment');
            t.expectError(await t.call('POST', '/sandbox/send', { body: { quoteId: quote.id, currencyCode: 'USD' }, key: t.key() }), 409, ['QUOTE_NOT_PENDING', 'CONFLICT'], 'a quote is paid once');
            const { value, met } = await t.poll(() => getQuote(t, quote.id), (q) => q.status === 'COMPLETED');
            t.is.ok(met, 'a paid quote to $success.eur completes (sandbox guide)', 'COMPLETED', () => value.status);
        }),
        check('quotes.realtime-funding.400-immediate', { operations: ['createQuote'], status: 400, rule: 'immediatelyExecute on a REALTIME_FUNDING quote is 400 IMMEDIATE_EXECUTION_NOT_SUPPORTED (errors guide)', needs: [...needs], tags: ['uma'] }, async (t) => {
            const { customer } = await usdEur(t, 0);
            const found = await lookup(t, '$success.usd@sandbox.uma.money', customer.id);
            const reply = await postQuote(t, { source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, lookupId: found.lookupId, senderCustomerInfo: { FULL_NAME: 'Jane Doe' }, immediatelyExecute: true });
            t.expectError(reply, 400, 'IMMEDIATE_EXECUTION_NOT_SUPPORTED', 'a real-time-funded quote waits for its funds');
        }),
        check('sandbox.uma-receive', { operations: ['receiveSandboxUmaPayment', 'getTransaction'], status: 200, rule: "an UMA payment to a customer's UMA address credits their internal account in that currency: one COMPLETED INCOMING transaction; an address no customer has is 404 UMA_NOT_FOUND (receiveSandboxUmaPayment)", needs: [...needs], tags: ['uma'] }, async (t) => {
            const customer = await individual(t);
            const account = await accountOf(t, customer.id, 'USD');
            const receive = (address, amount, currency = 'USD') => t.call('POST', '/sandbox/uma/receive', { body: { senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress: address, receivingCurrencyCode: currency, receivingCurrencyAmount: amount }, key: t.key() });
            const tx = t.expect(await receive(customer.umaAddress, 2_500), 200, 'receiveSandboxUmaPayment answers 200 with the transaction');
            t.is.contains(tx, { type: 'INCOMING', status: 'COMPLETED', source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' }, destination: { accountId: account.id }, customerId: customer.id, receivedAmount: { amount: 2_500 } }, 'the payment is an INCOMING COMPLETED transaction into the account');
            t.is.equal(await getTransaction(t, tx.id), tx, 'getTransaction answers it as created');
            t.is.equal(await balanceOf(t, account.id), 2_500, 'the account is credited the amount');
            t.expectError(await receive('$nobody.conformance@sandbox.uma.money', 100), 404, 'UMA_NOT_FOUND', 'an address no customer has');
            t.expectError(await receive(customer.umaAddress, 100, 'MXN'), 400, 'CURRENCY_MISMATCH', 'a customer without an account in the currency');
        }),
        check('exchange-rates.list', { operations: ['listExchangeRates'], status: 200, rule: 'exchange rates are filtered by source and destination currency and give the amounts for sendingAmount (listExchangeRates)', needs: ['state'] }, async (t) => {
            const all = t.expect(await t.call('GET', '/exchange-rates', { query: { sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: 10_000 } }), 200, 'listExchangeRates answers 200');
            t.is.ok(all.data.length > 0, 'the sandbox has a USD to EUR rate', 'a rate', () => 'none');
            for (const rate of all.data) {
                t.is.contains(rate, { sourceCurrency: { code: 'USD' }, destinationCurrency: { code: 'EUR' }, sendingAmount: 10_000 }, 'each rate matches the filters and the amount asked for');
            }
        }),
        check('discoveries.list', { operations: ['listDiscoveries'], status: 200, rule: 'banks are filtered by country and currency (listDiscoveries)', needs: ['state'] }, async (t) => {
            const found = t.expect(await t.call('GET', '/discoveries', { query: { country: 'MX', limit: 100 } }), 200, 'listDiscoveries answers 200');
            t.is.ok(found.data.length > 0, 'the sandbox knows banks in MX', 'a bank', () => 'none');
            for (const bank of found.data)
                t.is.equal(bank.country, 'MX', 'every bank is in the country asked for');
        }),
    ];
}
