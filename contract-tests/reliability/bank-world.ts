// The bank of a run, made over the API: customers with a USD and a EUR internal account (funded
// through the sandbox) and a USD and a EUR external account ending in 000 (transfers complete at
// once, quotes a few seconds after execution), and for the first customers an agent whose policy
// holds every money-moving action for the platform's approval.
import type { Reply } from '../support/cluster.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import type { BankRequest, Journal } from './bank-journal.ts';
import type { BankModel } from './bank-model.ts';

export interface BankCustomer {
  index: number;
  customerId: string;
  usd: string;
  eur: string;
  externalUsd: string;
  externalEur: string;
}

export interface BankAgent {
  agentId: string;
  accessToken: string;
}

export interface BankWorld {
  customers: BankCustomer[];
  /** By customer index. */
  agents: Map<number, BankAgent>;
}

export interface WorldShape {
  customers: number;
  /** Customers 0 … agents − 1 get an agent. */
  agents: number;
  usdFunding: number;
  eurFunding: number;
}

/** A setup request that must succeed: the run cannot start otherwise. */
async function expectStatus(journal: Journal, request: BankRequest, status: number): Promise<Record<string, unknown>> {
  const reply: Reply = await journal.send(request);
  if (reply.status !== status || reply.body === undefined) throw new Error(`bank setup, ${request.label}: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function openCustomer(journal: Journal, model: BankModel, shape: WorldShape, index: number, prefix: string): Promise<BankCustomer> {
  const via = index % 2;
  const post = (label: string, path: string, body: unknown, status: number) => expectStatus(journal, { via, method: 'POST', path, body, key: `${prefix}-${label}-${index}`, label }, status);
  const customer = await post('customer', '/customers', { customerType: 'INDIVIDUAL', fullName: `Bank Customer ${index}`, currencies: ['USD', 'EUR'] }, 201);
  const customerId = customer.id as string;
  const listed = await expectStatus(journal, { via, method: 'GET', path: `/customers/internal-accounts?customerId=${customerId}`, label: 'accounts' }, 200);
  const accounts = listed.data as { id: string; balance: { currency: { code: string } } }[];
  const idIn = (code: string) => accounts.find((a) => a.balance.currency.code === code)?.id ?? '';
  const [usd, eur] = [idIn('USD'), idIn('EUR')];
  model.addAccount(usd, 'USD');
  model.addAccount(eur, 'EUR');
  const externalUsd = (await post('external-usd', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd('000') }, 201)).id as string;
  const externalEur = (await post('external-eur', '/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: externalAccountInfo.eur('000') }, 201)).id as string;
  await post('fund-usd', `/sandbox/internal-accounts/${usd}/fund`, { amount: shape.usdFunding }, 200);
  model.fund(usd, shape.usdFunding);
  await post('fund-eur', `/sandbox/internal-accounts/${eur}/fund`, { amount: shape.eurFunding }, 200);
  model.fund(eur, shape.eurFunding);
  return { index, customerId, usd, eur, externalUsd, externalEur };
}

async function connectAgent(journal: Journal, customer: BankCustomer, prefix: string): Promise<BankAgent> {
  const policy = {
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
    defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000_000 },
  };
  const created = await expectStatus(journal, { via: 0, method: 'POST', path: '/agents', body: { name: `Bank agent ${customer.index}`, customerId: customer.customerId, policy }, key: `${prefix}-agent-${customer.index}`, label: 'agent' }, 201);
  const code = (created.deviceCode as { code: string }).code;
  const redeemed = await expectStatus(journal, { via: 1, method: 'POST', path: `/agents/device-codes/${code}/redeem`, label: 'redeem' }, 200);
  return { agentId: (created.agent as { id: string }).id, accessToken: redeemed.accessToken as string };
}

export async function openBank(journal: Journal, model: BankModel, shape: WorldShape, prefix: string): Promise<BankWorld> {
  const customers = await Promise.all(Array.from({ length: shape.customers }, (_, i) => openCustomer(journal, model, shape, i, prefix)));
  const agents = new Map<number, BankAgent>();
  for (const customer of customers.slice(0, shape.agents)) agents.set(customer.index, await connectAgent(journal, customer, prefix));
  return { customers, agents };
}
