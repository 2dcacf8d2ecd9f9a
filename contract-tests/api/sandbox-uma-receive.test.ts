// POST /sandbox/uma/receive: an UMA payment arriving for a customer of the platform, credited to
// their default UMA deposit account when it is in the currency received, otherwise to their
// primary internal account in it; one COMPLETED incoming transaction, readable afterwards.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, describeServer, errorOf, idempotencyKey, isMock, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, createExternalAccount, createIndividualCustomer, customerInternalAccount, getTransaction } from '../support/factories.ts';
import { jsonBody } from '../support/raw-requests.ts';

type Incoming = components['schemas']['IncomingTransaction'];

const receive = (receiverUmaAddress: string, amount: number, currency = 'USD', key?: string) =>
  raw('POST', '/sandbox/uma/receive', jsonBody({ senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress, receivingCurrencyCode: currency, receivingCurrencyAmount: amount }, key === undefined ? {} : { 'Idempotency-Key': key }));

describe('receiveSandboxUmaPayment', () => {
  it('200: an incoming transaction', async () => {
    const address = isMock ? '$jane.doe@payments.example.org' : (await createIndividualCustomer({ currencies: ['USD'] })).umaAddress;
    const res = await receive(address, 2_500);
    expect(res.status).toBe(200);
  });
});

describeServer('receiveSandboxUmaPayment on the server', () => {
  it('credits the primary internal account: COMPLETED at once, readable, the balance up to the minor unit', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const account = await customerInternalAccount(customer.id, 'USD');
    const res = await receive(customer.umaAddress, 2_500);
    const transaction = (await res.json()) as Incoming;
    expect(transaction).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: 'USD' },
      customerId: customer.id,
      receivedAmount: { amount: 2_500, currency: { code: 'USD' } },
      paymentRail: 'LIGHTNING',
    });
    expect(transaction.settledAt).toBeDefined();
    expect(await getTransaction(transaction.id)).toEqual(transaction);
    expect(await balanceOf(account.id)).toBe(2_500);
  });

  it('the address\'s domain is matched whatever its case', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const [name, domain] = customer.umaAddress.split('@') as [string, string];
    expect((await receive(`${name}@${domain.toUpperCase()}`, 100)).status).toBe(200);
  });

  it('goes to the default UMA deposit account instead when it is in that currency; no internal balance changes', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const account = await customerInternalAccount(customer.id, 'USD');
    const deposit = await createExternalAccount({ customerId: customer.id, currency: 'USD', accountInfo: externalAccountInfo.usd(), defaultUmaDepositAccount: true });
    const transaction = (await (await receive(customer.umaAddress, 4_000)).json()) as Incoming;
    expect(transaction).toMatchObject({ status: 'COMPLETED', destination: { destinationType: 'ACCOUNT', accountId: deposit.id, currency: 'USD' } });
    expect(await balanceOf(account.id)).toBe(0);
    // A payment in another currency than the deposit account's needs an internal account in it.
    const eur = await receive(customer.umaAddress, 100, 'EUR');
    expect(eur.status).toBe(400);
    expect((await errorOf(eur)).code).toBe('CURRENCY_MISMATCH');
  });

  it('404 UMA_NOT_FOUND for an address no customer has; 400 CURRENCY_MISMATCH without an account in the currency', async () => {
    const unknown = await receive('$nobody.at.all@sandbox.uma.money', 100);
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('UMA_NOT_FOUND');
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const mismatch = await receive(customer.umaAddress, 100, 'MXN');
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).code).toBe('CURRENCY_MISMATCH');
  });

  it('an Idempotency-Key replay credits once and answers the same transaction', async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD'] });
    const account = await customerInternalAccount(customer.id, 'USD');
    const key = idempotencyKey();
    const first = await receive(customer.umaAddress, 700, 'USD', key);
    const again = await receive(customer.umaAddress, 700, 'USD', key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
    expect(await balanceOf(account.id)).toBe(700);
    const page = await api.GET('/transactions', { params: { query: { destinationAccountId: account.id } } });
    expect(page.data?.totalCount).toBe(1);
  });
});
