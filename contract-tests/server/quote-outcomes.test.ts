// Quote outcomes due after minutes, on a server of this file's own whose platform's sandbox clock
// the tests move:
// suffix 003 completes after about 6 minutes, 005 completes and is then returned (credited back
// once), and a quote past its 5 minutes is EXPIRED on every read, cannot be executed, and its
// waiting real-time payment is expired by the job. Nothing is polled: the advance answers once
// what came due has happened; a sentinel payment due at the same time has changed by then too.
import { describe, expect, it } from 'vitest';
import { errorOf, target } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceThrough, getTransaction } from '../support/factories.ts';
import { ownServer } from '../support/own-server.ts';
import { type Quote, quoteCalls } from '../support/quotes.ts';
import { advancePlatformClock, transactionNow } from '../support/platform-clock.ts';

describe.skipIf(target !== 'pglite')('delayed quote outcomes on the platform sandbox clock', () => {
  const own = ownServer();
  const q = () => quoteCalls(own.server.baseUrl, own.token);

  /** A funded USD account of a new customer and an EUR bank account of theirs ending in `suffix`. */
  async function payer(suffix: string, funding: number) {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: `q-${suffix}-${Date.now()}-${Math.random()}`, fullName: 'Jane Doe', currencies: ['USD', 'EUR'] } });
    if (customer === undefined) throw new Error('customer not created');
    const { data: accounts } = await own.via.GET('/customers/internal-accounts', { params: { query: { customerId: customer.id } } });
    const usd = accounts?.data.find((a) => a.balance.currency.code === 'USD');
    const eur = accounts?.data.find((a) => a.balance.currency.code === 'EUR');
    if (usd === undefined || eur === undefined) throw new Error('accounts missing');
    await own.via.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd.id } }, body: { amount: funding } });
    const { data: external } = await own.via.POST('/customers/external-accounts', { body: { customerId: customer.id, currency: 'EUR', accountInfo: externalAccountInfo.eur(suffix) } });
    if (external === undefined) throw new Error('external account not created');
    return { customer, usd, eur, external };
  }

  async function paid(suffix: string, amount: number, funding: number): Promise<{ usd: string; quote: Quote }> {
    const { usd, external } = await payer(suffix, funding);
    const quote = await q().createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });
    return { usd: usd.id, quote };
  }
  const inStatus = (quote: Quote, status: 'COMPLETED' | 'FAILED' | 'EXPIRED') => transactionNow(own.via, quote.transactionId ?? '', status);

  it('003: PROCESSING for about 6 minutes, then COMPLETED', async () => {
    const { quote } = await paid('003', 10_000, 10_000);
    expect(quote.status).toBe('PROCESSING');
    await advancePlatformClock(own.via, 3 * 60_000);
    const sentinel = await paid('004', 1_000, 1_000);
    await advancePlatformClock(own.via, 3_000);
    await inStatus(sentinel.quote, 'FAILED');
    expect((await q().getQuote(quote.id)).status).toBe('PROCESSING');
    await advancePlatformClock(own.via, 3 * 60_000 + 1_000);
    await inStatus(quote, 'COMPLETED');
    expect((await q().getQuote(quote.id)).status).toBe('COMPLETED');
  }, 90_000);

  it('005: COMPLETED, then returned: FAILED (PAYMENT_RETURNED) and credited back exactly once', async () => {
    const { usd, quote } = await paid('005', 4_000, 10_000);
    expect(await balanceThrough(usd, own.via)).toBe(6_000);
    await advancePlatformClock(own.via, 3_000);
    const completed = await inStatus(quote, 'COMPLETED');
    expect(completed.settledAt).toBeDefined();
    await advancePlatformClock(own.via, 3_000);
    const returned = await inStatus(quote, 'FAILED');
    expect(returned.failureReason).toBe('PAYMENT_RETURNED');
    expect((await q().getQuote(quote.id)).status).toBe('FAILED');
    expect(await balanceThrough(usd, own.via)).toBe(10_000);
    await advancePlatformClock(own.via, 60_000);
    const sentinel = await paid('004', 1_000, 1_000);
    await advancePlatformClock(own.via, 3_000);
    await inStatus(sentinel.quote, 'FAILED');
    expect(await balanceThrough(usd, own.via)).toBe(10_000);
  }, 90_000);

  it('$pending.long.usd stays PROCESSING, however long it waits', async () => {
    const { customer, usd } = await payer('000', 5_000);
    const lookup = await q().umaLookup('$pending.long.usd@sandbox.uma.money', customer.id);
    const quote = await q().createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$pending.long.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
      immediatelyExecute: true,
    });
    expect(quote.status).toBe('PROCESSING');
    await advancePlatformClock(own.via, 60 * 60_000);
    const sentinel = await paid('004', 1_000, 1_000);
    await advancePlatformClock(own.via, 3_000);
    await inStatus(sentinel.quote, 'FAILED');
    expect((await q().getQuote(quote.id)).status).toBe('PROCESSING');
    expect(await balanceThrough(usd.id, own.via)).toBe(3_000);
  }, 90_000);

  it('past expiresAt a quote reads EXPIRED and cannot be executed; a waiting real-time payment expires too', async () => {
    const { customer, usd, eur } = await payer('000', 10_000);
    const open = await q().createQuote({ source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: eur.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
    const lookup = await q().umaLookup('$success.usd@sandbox.uma.money', customer.id);
    const realtime = await q().createQuote({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: customer.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
    });
    await advancePlatformClock(own.via, 5 * 60_000);
    expect((await q().getQuote(open.id)).status).toBe('EXPIRED');
    const late = await q().executeQuote(open.id);
    expect(late.status).toBe(409);
    expect((await errorOf(late)).code).toBe('QUOTE_NOT_PENDING');
    expect(await balanceThrough(usd.id, own.via)).toBe(10_000);
    const expired = await inStatus(realtime, 'EXPIRED');
    expect(expired.failureReason).toBe('QUOTE_EXPIRED');
    expect((await q().getQuote(realtime.id)).status).toBe('EXPIRED');
    const send = await q().sandboxSend({ quoteId: realtime.id, currencyCode: 'EUR' });
    expect(send.status).toBe(409);
    expect((await getTransaction(realtime.transactionId ?? '', own.via)).status).toBe('EXPIRED');
  }, 90_000);
});
