// An agent acting for a customer: the platform creates it with a policy that holds transfers above
// $10 for approval, the agent redeems its device code (no credentials) and acts with its own bearer
// token, and the platform approves the held transfer.
//   PAYMENTS_CLIENT_ID=... PAYMENTS_CLIENT_SECRET=... npx tsx client/examples/agent.ts
import { createAgentClient, createPaymentsClient, paginate, unwrap } from '@payments-service/contract';

const baseUrl = process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:3000/2025-10-13';
const api = createPaymentsClient({ baseUrl, clientId: process.env.PAYMENTS_CLIENT_ID, clientSecret: process.env.PAYMENTS_CLIENT_SECRET });

// A customer with funds and a bank account for the agent to pay into.
const customer = await unwrap(api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD'] } }));
let usd: string | undefined;
for await (const account of paginate(api, '/customers/internal-accounts', { params: { query: { customerId: customer.id, currency: 'USD' } } })) usd = account.id;
if (usd === undefined) throw new Error('the customer has no USD internal account');
await unwrap(api.POST('/sandbox/internal-accounts/{accountId}/fund', { params: { path: { accountId: usd } }, body: { amount: 20_000 } }));
const bank = await unwrap(
  api.POST('/customers/external-accounts', {
    body: {
      customerId: customer.id,
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
    },
  }),
);
console.log(`customer ${customer.id}: account ${usd} funded, bank account ${bank.id}`);

const created = await unwrap(
  api.POST('/agents', {
    body: {
      name: 'Bill payer',
      customerId: customer.id,
      policy: {
        permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 10_000 },
        approvalThresholds: { currency: 'USD', amount: 1_000 },
      },
    },
  }),
);
console.log(`agent ${created.agent.id}: device code ${created.deviceCode.code}`);

// The agent's side: redeeming needs no credentials; the token it gets is its only credential.
const anonymous = createPaymentsClient({ baseUrl });
const { accessToken } = await unwrap(anonymous.POST('/agents/device-codes/{code}/redeem', { params: { path: { code: created.deviceCode.code } } }));
const agent = createAgentClient({ baseUrl, accessToken });
const me = await unwrap(agent.GET('/agents/me'));
console.log(`agent connected as ${me.name} for ${me.customerId}`);

const small = await unwrap(agent.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank.id }, amount: 500 } }));
console.log(`agent transfer of $5: ${small.status}`);
const large = await unwrap(agent.POST('/agents/me/transfer-out', { body: { source: { accountId: usd }, destination: { accountId: bank.id }, amount: 5_000 } }));
console.log(`agent transfer of $50: ${large.status}`);

// The platform's side: the policy held the large transfer; approve it.
if (large.status === 'PENDING_APPROVAL') {
  const approved = await unwrap(api.POST('/agents/{agentId}/actions/{actionId}/approve', { params: { path: { agentId: created.agent.id, actionId: large.id } } }));
  console.log(`platform approved action ${approved.id}: ${approved.status}, transaction ${approved.transaction?.status ?? approved.transactionId ?? '-'}`);
}
