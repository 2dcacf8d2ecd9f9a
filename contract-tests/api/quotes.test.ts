// Cross-currency quotes: createQuote, getQuote, executeQuote and the sandbox's POST /sandbox/send,
// with receiver lookups. Every rule read back through the API: amounts to the minor unit, the
// balances of both ends, the quote's transaction. Outcomes due after minutes (suffix 003, expiry)
// need the clock moved: ../server/quote-outcomes.test.ts.
import { describe, expect, it } from 'vitest';
import { api, controlsOrigin, describeServer, errorOf, idempotencyKey, isMock, itServer, raw, serverBaseUrl } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, balanceThrough, createExternalAccount, createIndividualCustomer, customerInternalAccount, customerWithExternalAccount, fund, getTransaction } from '../support/factories.ts';
import { advancePlatformClock, newPlatform, transactionNow } from '../support/platform-clock.ts';
import { createQuote, executeQuote, getQuote, ok, postQuote, type Quote, quoteCalls, sandboxSend, umaLookup } from '../support/quotes.ts';

const MAX = 9_000_000_000_000_000;

/** A customer with USD and EUR internal accounts, the USD one funded with `funding`. */
async function usdEurCustomer(funding: number) {
  const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR', 'MXN'] });
  const usd = await customerInternalAccount(customer.id, 'USD');
  const eur = await customerInternalAccount(customer.id, 'EUR');
  if (funding > 0) await fund(usd.id, funding);
  return { customer, usd, eur };
}

/**
 * usdEurCustomer's customer (its USD account funded with `funding`) on a platform of its own, with
 * that platform's quote calls: for tests whose outcome the platform's clock brings, since the
 * suite's platform's clock must not move.
 */
async function customerOfItsOwnPlatform(funding: number) {
  const { via, token } = await newPlatform(serverBaseUrl, controlsOrigin(serverBaseUrl));
  const { data: customer, response } = await via.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD', 'EUR', 'MXN'] } });
  expect(response.status).toBe(201);
  const { data: accounts } = await via.GET('/customers/internal-accounts', { params: { query: { customerId: customer?.id ?? '', currency: 'USD' } } });
  const usd = { id: accounts?.data[0]?.id ?? '' };
  if (funding > 0) expect((await via.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd.id } }, body: { amount: funding } })).response.status).toBe(200);
  return { via, q: quoteCalls(serverBaseUrl, token), customer: { id: customer?.id ?? '' }, usd };
}

const toEur = (usd: string, eur: string, amount: number, side: 'SENDING' | 'RECEIVING' = 'SENDING') => ({
  source: { sourceType: 'ACCOUNT' as const, accountId: usd },
  destination: { destinationType: 'ACCOUNT' as const, accountId: eur },
  lockedCurrencySide: side,
  lockedCurrencyAmount: amount,
});

/** The documented rule, checked on a quote's own numbers (the property tests cover it in depth). */
function expectConsistent(quote: Quote) {
  const d = quote.rateDetails;
  if (d === undefined) throw new Error('a quote without rateDetails');
  expect(quote.feesIncluded).toBe(d.serviceApiFixedFee + d.serviceApiVariableFeeAmount);
  expect(d.serviceApiVariableFeeAmount).toBe(Math.floor((quote.totalSendingAmount * Math.round(d.serviceApiVariableFeeRate * 10_000)) / 10_000));
  // Sending-currency units per receiving-currency unit, both in whole units.
  const net = quote.totalSendingAmount - quote.feesIncluded;
  const whole = net / 10 ** quote.sendingCurrency.decimals / (quote.totalReceivingAmount / 10 ** quote.receivingCurrency.decimals);
  expect(Math.abs(quote.exchangeRate - whole) / whole).toBeLessThan(1e-7);
}

describe('createQuote', () => {
  it('201: a pending quote from one internal account to another, with the locked side exact', async () => {
    if (isMock) {
      const res = await postQuote(toEur('InternalAccount:019542f5-b3e7-1d02-0000-000000000005', 'InternalAccount:019542f5-b3e7-1d02-0000-000000000015', 30_000));
      expect(res.status).toBe(201);
      return;
    }
    const { customer, usd, eur } = await usdEurCustomer(0);
    const quote = await createQuote({ ...toEur(usd.id, eur.id, 30_000), description: 'Travel money' });
    expect(quote).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: usd.id, customerId: customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      sendingCurrency: { code: 'USD', decimals: 2 },
      receivingCurrency: { code: 'EUR', decimals: 2 },
      totalSendingAmount: 30_000,
      description: 'Travel money',
    });
    expect(quote.transactionId).toBeUndefined();
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(5 * 60_000);
    // About 0.92 EUR per USD, less 1% and 0.50 USD of fees.
    expect(quote.totalReceivingAmount).toBeGreaterThan(26_500);
    expect(quote.totalReceivingAmount).toBeLessThan(27_500);
    expectConsistent(quote);
    expect(await getQuote(quote.id)).toEqual(quote);
  });

  itServer('locks the receiving side exactly when asked, fees on top', async () => {
    const { usd, eur } = await usdEurCustomer(0);
    const quote = await createQuote(toEur(usd.id, eur.id, 10_000, 'RECEIVING'));
    expect(quote.totalReceivingAmount).toBe(10_000);
    expect(quote.totalSendingAmount).toBeGreaterThan(10_000);
    expectConsistent(quote);
  });

  itServer('400 INVALID_AMOUNT: an amount that does not cover the fees, or another side above 9000000000000000', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'MXN'] });
    const usd = await customerInternalAccount(customer.id, 'USD');
    const mxn = await customerInternalAccount(customer.id, 'MXN');
    const small = await postQuote(toEur(usd.id, mxn.id, 10));
    expect(small.status).toBe(400);
    expect((await errorOf(small)).code).toBe('INVALID_AMOUNT');
    // 9e15 cents of USD are about 1.7e17 centavos of MXN.
    const large = await postQuote(toEur(usd.id, mxn.id, MAX));
    expect(large.status).toBe(400);
    expect((await errorOf(large)).code).toBe('INVALID_AMOUNT');
  });

  itServer('404 for an unknown source or destination; 400 for the source as destination', async () => {
    const { usd } = await usdEurCustomer(0);
    const missing = await postQuote(toEur(usd.id, 'InternalAccount:019542f5-b3e7-1d02-0000-0000000000ff', 1_000));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('INTERNAL_ACCOUNT_NOT_FOUND');
    const self = await postQuote(toEur(usd.id, usd.id, 1_000));
    expect(self.status).toBe(400);
  });

  itServer('400 ACCOUNT_OWNER_MISMATCH: another customer\'s external account as destination', async () => {
    const { usd } = await usdEurCustomer(0);
    const other = await customerWithExternalAccount('000', { currency: 'EUR' });
    const res = await postQuote({ ...toEur(usd.id, other.external.id, 1_000) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('ACCOUNT_OWNER_MISMATCH');
  });

  itServer('400 ACCOUNT_NOT_ACTIVE: a deleted (INACTIVE) external account as destination, naming it', async () => {
    const { customer, usd } = await usdEurCustomer(0);
    const external = await createExternalAccount({ customerId: customer.id, currency: 'EUR', accountInfo: externalAccountInfo.eur('000') });
    expect((await api.DELETE('/customers/external-accounts/{externalAccountId}', { params: { path: { externalAccountId: external.id } } })).response.status).toBe(204);
    const res = await postQuote(toEur(usd.id, external.id, 1_000));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVE', details: { accountId: external.id } });
  });

  itServer('400 INVALID_INPUT: a rail the destination account cannot be paid on', async () => {
    const { customer, usd } = await usdEurCustomer(0);
    const external = await createExternalAccount({ customerId: customer.id, currency: 'EUR', accountInfo: externalAccountInfo.eur('000') });
    const res = await postQuote({ ...toEur(usd.id, external.id, 1_000), destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'ACH' } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('EUR_ACCOUNT can be paid on SEPA, SEPA_INSTANT, SWIFT, not ACH') });
  });

  itServer('immediatelyExecute: created and executed in one call', async () => {
    const { usd, eur } = await usdEurCustomer(50_000);
    const quote = await createQuote({ ...toEur(usd.id, eur.id, 20_000), immediatelyExecute: true });
    expect(quote.status).toBe('COMPLETED');
    expect(quote.transactionId).toBeDefined();
    expect(await balanceOf(usd.id)).toBe(30_000);
    expect(await balanceOf(eur.id)).toBe(quote.totalReceivingAmount);
  });

  itServer('immediatelyExecute without the funds: 400 INSUFFICIENT_FUNDS, and nothing is recorded', async () => {
    const { usd, eur } = await usdEurCustomer(100);
    const res = await postQuote({ ...toEur(usd.id, eur.id, 20_000), immediatelyExecute: true });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(usd.id)).toBe(100);
  });
});

describeServer('executeQuote', () => {
  it('200: debits the source and credits the other internal account at once, exactly once', async () => {
    const { usd, eur } = await usdEurCustomer(100_000);
    const quote = await createQuote(toEur(usd.id, eur.id, 30_000));
    const executed = await ok<Quote>(executeQuote(quote.id));
    expect(executed).toMatchObject({ id: quote.id, status: 'COMPLETED', totalSendingAmount: 30_000, totalReceivingAmount: quote.totalReceivingAmount });
    expect(await balanceOf(usd.id)).toBe(70_000);
    expect(await balanceOf(eur.id)).toBe(quote.totalReceivingAmount);
    const transaction = await getTransaction(executed.transactionId ?? '');
    expect(transaction).toMatchObject({
      type: 'OUTGOING',
      status: 'COMPLETED',
      quoteId: quote.id,
      sentAmount: { amount: 30_000, currency: { code: 'USD' } },
      receivedAmount: { amount: quote.totalReceivingAmount, currency: { code: 'EUR' } },
      fees: quote.feesIncluded,
      exchangeRate: quote.exchangeRate,
      rateDetails: quote.rateDetails,
    });
    // A second execution is refused and moves nothing.
    const again = await executeQuote(quote.id);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('QUOTE_NOT_PENDING');
    expect(await balanceOf(usd.id)).toBe(70_000);
  });

  it('the same Idempotency-Key replays the first execution; concurrent executions debit once', async () => {
    const { usd, eur } = await usdEurCustomer(100_000);
    const quote = await createQuote(toEur(usd.id, eur.id, 10_000));
    const key = idempotencyKey();
    const first = await executeQuote(quote.id, key);
    const replay = await executeQuote(quote.id, key);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.json()).toEqual(await first.json());
    const other = await createQuote(toEur(usd.id, eur.id, 10_000));
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => executeQuote(other.id)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(await balanceOf(usd.id)).toBe(80_000);
  });

  it('400 INSUFFICIENT_FUNDS leaves the quote PENDING: fund the account, then execute', async () => {
    const { usd, eur } = await usdEurCustomer(1_000);
    const quote = await createQuote(toEur(usd.id, eur.id, 5_000));
    const refused = await executeQuote(quote.id);
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).code).toBe('INSUFFICIENT_FUNDS');
    expect((await getQuote(quote.id)).status).toBe('PENDING');
    await fund(usd.id, 4_000);
    expect((await ok<Quote>(executeQuote(quote.id))).status).toBe('COMPLETED');
    expect(await balanceOf(usd.id)).toBe(0);
  });

  it('404 QUOTE_NOT_FOUND for an unknown quote', async () => {
    const res = await executeQuote('Quote:019542f5-b3e7-1d02-0000-0000000000ff');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('QUOTE_NOT_FOUND');
  });

  it.each([
    ['000', 'COMPLETED', null, 0],
    ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', 1],
    ['004', 'FAILED', 'COUNTERPARTY_DELIVERY_FAILED', 1],
    ['006', 'FAILED', 'USER_CANCELLED', 1],
    ['007', 'FAILED', 'REFUND_FAILED', 0],
  ] as const)('to an external account ending %s: PROCESSING, then %s (%s) a few seconds later; credited back: %s', async (suffix, ends, reason, creditedBack) => {
    // On a platform of its own, whose clock brings the outcome (the suite's platform's must not move).
    const { via, q, customer, usd } = await customerOfItsOwnPlatform(50_000);
    const { data: external } = await via.POST('/customers/external-accounts', { body: { customerId: customer.id, currency: 'EUR', accountInfo: externalAccountInfo.eur(suffix) } });
    const quote = await q.createQuote({ ...toEur(usd.id, external?.id ?? '', 10_000) });
    expect(quote.destination).toMatchObject({ destinationType: 'ACCOUNT', accountId: external?.id, paymentRail: 'SEPA' });
    expect(quote.counterpartyInformation).toEqual({ FULL_NAME: 'Northwind Payouts SAS' });
    const executed = await ok<Quote>(q.executeQuote(quote.id));
    expect(executed.status).toBe('PROCESSING');
    expect(await balanceThrough(usd.id, via)).toBe(40_000);
    await advancePlatformClock(via, 3_000);
    const transaction = await transactionNow(via, executed.transactionId ?? '', ends);
    expect(transaction.failureReason ?? null).toBe(reason);
    expect((await q.getQuote(quote.id)).status).toBe(ends);
    expect(await balanceThrough(usd.id, via)).toBe(40_000 + creditedBack * 10_000);
  });
});

describeServer('UMA destinations', () => {
  it('a lookup, then a quote with every sender field the lookup listed, paid and COMPLETED', async () => {
    // On a platform of its own, whose clock brings the outcome.
    const { via, q, customer, usd } = await customerOfItsOwnPlatform(50_000);
    const lookup = await q.umaLookup('$success.mxn@sandbox.uma.money', customer.id);
    expect(lookup).toMatchObject({ receiverUmaAddress: '$success.mxn@sandbox.uma.money', supportedCurrencies: [{ currency: { code: 'MXN' } }] });
    expect(lookup.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false },
    ]);
    const body = {
      source: { sourceType: 'ACCOUNT' as const, accountId: usd.id },
      destination: { destinationType: 'UMA_ADDRESS' as const, umaAddress: '$success.mxn@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING' as const,
      lockedCurrencyAmount: 10_000,
      lookupId: lookup.lookupId,
    };
    const without = await q.postQuote(body);
    expect(without.status).toBe(400);
    const error = await errorOf(without);
    expect(error.code).toBe('MISSING_PAYER_DATA');
    expect(error.details?.missingFields).toEqual(['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY']);
    // Every listed field, not only the mandatory ones (the specification's rule).
    const withoutOptional = await q.postQuote({ ...body, senderCustomerInfo: { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-04-21' } });
    expect(withoutOptional.status).toBe(400);
    expect(await errorOf(withoutOptional)).toMatchObject({ code: 'MISSING_PAYER_DATA', details: { missingFields: ['NATIONALITY'] } });
    const senderCustomerInfo = { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-04-21', NATIONALITY: 'US' };
    const noLookup = await q.postQuote({ ...body, lookupId: undefined, senderCustomerInfo });
    expect(noLookup.status).toBe(400);
    expect((await errorOf(noLookup)).code).toBe('LOOKUP_REQUIRED');
    const quote = await q.createQuote({ ...body, senderCustomerInfo });
    expect(quote.destination).toEqual({ destinationType: 'UMA_ADDRESS', umaAddress: '$success.mxn@sandbox.uma.money', currency: 'MXN' });
    expect(quote.rateDetails).toMatchObject({ serviceApiMultiplier: 1 });
    expect(quote.rateDetails?.counterpartyMultiplier).toBeGreaterThan(0.15);
    expectConsistent(quote);
    const executed = await ok<Quote>(q.executeQuote(quote.id));
    await advancePlatformClock(via, 3_000);
    const transaction = await transactionNow(via, executed.transactionId ?? '', 'COMPLETED');
    expect(transaction).toMatchObject({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.mxn@sandbox.uma.money', currency: 'MXN' }, paymentRail: 'LIGHTNING' });
    expect(await balanceThrough(usd.id, via)).toBe(40_000);
  });

  it('400 INVALID_AMOUNT below what the receiver accepts (the lookup\'s min)', async () => {
    const { customer, usd } = await usdEurCustomer(0);
    const lookup = await umaLookup('$success.mxn@sandbox.uma.money', customer.id);
    const min = lookup.supportedCurrencies[0]?.min ?? 0;
    const res = await postQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.mxn@sandbox.uma.money' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: min - 1,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-04-21', NATIONALITY: 'US' },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('INVALID_AMOUNT');
  });

  it('$fail.compliance.usd fails the compliance check a few seconds later and the funds come back', async () => {
    // On a platform of its own, whose clock brings the outcome (the suite's platform's must not move).
    const { via, q, customer, usd: { id: usd } } = await customerOfItsOwnPlatform(20_000);
    const lookup = await q.umaLookup('$fail.compliance.usd@sandbox.uma.money', customer.id);
    const quote = await q.createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$fail.compliance.usd@sandbox.uma.money', currency: 'USD' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
      immediatelyExecute: true,
    });
    expect(quote.status).toBe('PROCESSING');
    await advancePlatformClock(via, 3_000);
    const transaction = await transactionNow(via, quote.transactionId ?? '', 'FAILED');
    expect(transaction.failureReason).toBe('COMPLIANCE_REJECTED');
    expect(await balanceThrough(usd, via)).toBe(20_000);
  });

  it('lookups: 404 UMA_NOT_FOUND at the sandbox domain, the sender named by id or UMA address of a customer, exactly one of them', async () => {
    const { customer } = await usdEurCustomer(0);
    const unknown = await raw('GET', `/receiver/uma/${encodeURIComponent('$nobody@sandbox.uma.money')}?customerId=${encodeURIComponent(customer.id)}`);
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('UMA_NOT_FOUND');
    const neither = await raw('GET', `/receiver/uma/${encodeURIComponent('$success.usd@sandbox.uma.money')}`);
    expect(neither.status).toBe(400);
    const bySender = await raw('GET', `/receiver/uma/${encodeURIComponent('$success.usd@sandbox.uma.money')}?senderUmaAddress=${encodeURIComponent(customer.umaAddress)}`);
    expect(bySender.status).toBe(200);
    const strangerSender = await raw('GET', `/receiver/uma/${encodeURIComponent('$success.usd@sandbox.uma.money')}?senderUmaAddress=${encodeURIComponent('$nobody@elsewhere.example')}`);
    expect(strangerSender.status).toBe(404);
    expect((await errorOf(strangerSender)).code).toBe('CUSTOMER_NOT_FOUND');
    const both = await raw('GET', `/receiver/uma/${encodeURIComponent('$success.usd@sandbox.uma.money')}?customerId=${encodeURIComponent(customer.id)}&senderUmaAddress=${encodeURIComponent('$jane@example.com')}`);
    expect(both.status).toBe(400);
  });

  it('an external-account lookup names the account, its currency and the sender fields its rail needs', async () => {
    const pair = await customerWithExternalAccount('000', { currency: 'EUR' });
    const { data } = await api.GET('/receiver/external-account/{externalAccountId}', { params: { path: { externalAccountId: pair.external.id }, query: { customerId: pair.customer.id } } });
    expect(data).toMatchObject({ accountId: pair.external.id, supportedCurrencies: [{ currency: { code: 'EUR' } }], requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }] });
  });
});

describeServer('real-time funding and POST /sandbox/send', () => {
  /** A real-time funded quote to an UMA address: on the suite's platform, or with `own`'s calls and customer. */
  async function realtimeQuote(own?: { q: ReturnType<typeof quoteCalls>; customer: { id: string } }) {
    const { umaLookup, createQuote } = own?.q ?? quoteCalls();
    const customer = own?.customer ?? (await usdEurCustomer(0)).customer;
    const lookup = await umaLookup('$success.eur@sandbox.uma.money', customer.id);
    return createQuote({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money', currency: 'EUR' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 5_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
    });
  }

  it('the quote carries payment instructions and a waiting transaction; paying it starts the payment', async () => {
    // On a platform of its own, whose clock brings the outcome.
    const own = await customerOfItsOwnPlatform(0);
    const { via, q } = own;
    const quote = await realtimeQuote(own);
    expect(quote.totalReceivingAmount).toBe(5_000);
    expect(quote.paymentInstructions?.[0]?.accountOrWalletInfo).toMatchObject({ accountType: 'USD_ACCOUNT' });
    expect(quote.transactionId).toBeDefined();
    expect((await getTransaction(quote.transactionId ?? '', via)).status).toBe('PENDING');
    const notThisWay = await q.executeQuote(quote.id);
    expect(notThisWay.status).toBe(400);
    const wrongCurrency = await q.sandboxSend({ quoteId: quote.id, currencyCode: 'EUR' });
    expect(wrongCurrency.status).toBe(400);
    expect((await errorOf(wrongCurrency)).code).toBe('CURRENCY_MISMATCH');
    const paid = await ok<{ id: string; status: string }>(q.sandboxSend({ quoteId: quote.id, currencyCode: 'USD' }));
    expect(paid).toMatchObject({ id: quote.transactionId, status: 'PROCESSING' });
    expect((await q.getQuote(quote.id)).status).toBe('PROCESSING');
    const twice = await q.sandboxSend({ quoteId: quote.id, currencyCode: 'USD' });
    expect(twice.status).toBe(409);
    await advancePlatformClock(via, 3_000);
    expect((await q.getQuote(quote.id)).status).toBe('COMPLETED');
  });

  it('another amount than totalSendingAmount fails the payment', async () => {
    const quote = await realtimeQuote();
    const paid = await ok<{ status: string; failureReason?: string }>(sandboxSend({ quoteId: quote.id, currencyCode: 'USD', currencyAmount: quote.totalSendingAmount - 1 }));
    expect(paid).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
    expect((await getQuote(quote.id)).status).toBe('FAILED');
  });

  it('400 IMMEDIATE_EXECUTION_NOT_SUPPORTED for a real-time-funded quote', async () => {
    const { customer } = await usdEurCustomer(0);
    const lookup = await umaLookup('$success.usd@sandbox.uma.money', customer.id);
    const res = await postQuote({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
      immediatelyExecute: true,
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('IMMEDIATE_EXECUTION_NOT_SUPPORTED');
  });
});
