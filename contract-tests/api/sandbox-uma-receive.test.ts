// POST /sandbox/uma/receive: an UMA payment arriving for a customer of the platform, credited to
// their default UMA deposit account when it is in the currency received, otherwise to their
// primary internal account in it; one COMPLETED incoming transaction, readable afterwards. The
// payment to the primary account, UMA_NOT_FOUND, CURRENCY_MISMATCH and the replay are the
// conformance kit's sandbox.uma-receive and idempotency.* checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { describeServer, errorOf, isMock, raw } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { balanceOf, createExternalAccount, createIndividualCustomer, customerInternalAccount } from '../support/factories.ts';
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
});
