// A payout, as in the README's curl walkthrough: a customer, its USD internal account funded in
// the sandbox, a bank account paid from it, then an UMA payment: receiver lookup, quote, execute.
//   PAYMENTS_CLIENT_ID=... PAYMENTS_CLIENT_SECRET=... npx tsx client/examples/payout.ts
import { createPaymentsClient, paginate, unwrap } from '@payments-service/contract';

const api = createPaymentsClient({
  baseUrl: process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:3000/2025-10-13',
  clientId: process.env.PAYMENTS_CLIENT_ID,
  clientSecret: process.env.PAYMENTS_CLIENT_SECRET,
});

const customer = await unwrap(
  api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', birthDate: '1990-04-21', currencies: ['USD'] } }),
);
console.log(`customer ${customer.id}`);

// Every customer gets an internal account per currency; pick the USD one.
let usd: string | undefined;
for await (const account of paginate(api, '/customers/internal-accounts', { params: { query: { customerId: customer.id, currency: 'USD' } } })) {
  if (account.type !== 'EMBEDDED_WALLET') usd = account.id;
}
if (usd === undefined) throw new Error('the customer has no USD internal account');
const funded = await unwrap(api.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd } }, body: { amount: 50_000 } }));
console.log(`internal account ${usd} funded: balance ${funded.balance.amount} ${funded.balance.currency.code}`);

const bank = await unwrap(
  api.POST('/customers/external-accounts', {
    body: {
      customerId: customer.id,
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', bankAccountType: 'CHECKING', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
    },
  }),
);
console.log(`external account ${bank.id}`);
const transfer = await unwrap(api.POST('/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank.id }, amount: 10_000 } }));
// Only an EMBEDDED_WALLET source answers a 202 challenge its owner signs (see withSignedRetry).
if (!('id' in transfer)) throw new Error(`transfer-out from a held account answered a signed-retry challenge: ${transfer.requestId}`);
console.log(`transfer-out ${transfer.id}: ${transfer.status}`);

const receiver = '$success.mxn@sandbox.uma.money';
const lookup = await unwrap(api.GET('/receiver/uma/{receiverUmaAddress}', { params: { path: { receiverUmaAddress: receiver }, query: { customerId: customer.id } } }));
console.log(`receiver ${receiver}: lookup ${lookup.lookupId}, payer data ${lookup.requiredPayerDataFields.map((f) => f.name).join(', ') || 'none'}`);

const quote = await unwrap(
  api.POST('/quotes', {
    body: {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      lookupId: lookup.lookupId,
      senderCustomerInfo: { FULL_NAME: 'Jane Doe', BIRTH_DATE: '1990-04-21', NATIONALITY: 'US' },
    },
  }),
);
console.log(`quote ${quote.id}: ${quote.totalSendingAmount} USD → ${quote.totalReceivingAmount} MXN, until ${quote.expiresAt}`);

const executed = await unwrap(api.POST('/quotes/{quoteId}/execute', { params: { path: { quoteId: quote.id } } }));
console.log(`quote ${executed.id} executed: ${executed.status}`);
