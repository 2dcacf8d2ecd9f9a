// What the idempotency races act on: customers with a USD and a EUR internal account, funded far
// beyond what the races move (so every first request succeeds and a refusal is never the reason a
// replay matches), a USD external account ending in 000, and the quotes the execute keys execute
// (USD to the customer's own EUR account), plus one decoy quote the mismatched requests name.
import { call, type Cluster, type Reply } from '../support/cluster.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import type { ServerProcess } from '../support/server-process.ts';

export interface RaceCustomer {
  customerId: string;
  usd: string;
  eur: string;
  externalUsd: string;
}

export interface RaceWorld {
  customers: RaceCustomer[];
  /** Quotes waiting for their execute key, by key index. */
  quotes: Map<number, { id: string; customer: RaceCustomer; totalSendingAmount: number; totalReceivingAmount: number }>;
  /** Never executed: a mismatched execute names it, and it must stay PENDING. */
  decoyQuote: string;
  funding: { usd: number; eur: number };
}

export const conversion = (customer: RaceCustomer, amount: number) => ({
  source: { sourceType: 'ACCOUNT', accountId: customer.usd },
  destination: { destinationType: 'ACCOUNT', accountId: customer.eur },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

async function expectOk(server: ServerProcess, cluster: Cluster, path: string, body: unknown, status: number, method = 'POST'): Promise<Record<string, unknown>> {
  const reply: Reply = await call(server, cluster.token, method, path, body);
  if (reply.status !== status || reply.body === undefined) throw new Error(`races setup, ${method} ${path}: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function openCustomer(cluster: Cluster, index: number, funding: RaceWorld['funding']): Promise<RaceCustomer> {
  const server = cluster.servers[index % cluster.servers.length] as ServerProcess;
  const customer = await expectOk(server, cluster, '/customers', { customerType: 'INDIVIDUAL', fullName: `Race Customer ${index}`, currencies: ['USD', 'EUR'] }, 201);
  const customerId = customer.id as string;
  const listed = await expectOk(server, cluster, `/customers/internal-accounts?customerId=${customerId}`, undefined, 200, 'GET');
  const accounts = listed.data as { id: string; balance: { currency: { code: string } } }[];
  const idIn = (code: string) => accounts.find((a) => a.balance.currency.code === code)?.id ?? '';
  const external = await expectOk(server, cluster, '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd('000') }, 201);
  const [usd, eur] = [idIn('USD'), idIn('EUR')];
  await expectOk(server, cluster, `/sandbox/internal-accounts/${usd}/fund`, { amount: funding.usd }, 200);
  await expectOk(server, cluster, `/sandbox/internal-accounts/${eur}/fund`, { amount: funding.eur }, 200);
  return { customerId, usd, eur, externalUsd: external.id as string };
}

export async function openRaceWorld(cluster: Cluster, customers: number, executeKeys: readonly number[]): Promise<RaceWorld> {
  const funding = { usd: 100_000_000, eur: 100_000_000 };
  const opened = await Promise.all(Array.from({ length: customers }, (_, i) => openCustomer(cluster, i, funding)));
  const quotes: RaceWorld['quotes'] = new Map();
  // Created ahead, a few at a time; all are executed well within their 5 minutes.
  for (let start = 0; start < executeKeys.length; start += 20) {
    await Promise.all(
      executeKeys.slice(start, start + 20).map(async (index) => {
        const customer = opened[index % opened.length] as RaceCustomer;
        const quote = await expectOk(cluster.servers[index % 2] as ServerProcess, cluster, '/quotes', conversion(customer, 1_000 + index), 201);
        quotes.set(index, { id: quote.id as string, customer, totalSendingAmount: quote.totalSendingAmount as number, totalReceivingAmount: quote.totalReceivingAmount as number });
      }),
    );
  }
  const decoy = await expectOk(cluster.servers[0] as ServerProcess, cluster, '/quotes', conversion(opened[0] as RaceCustomer, 777), 201);
  return { customers: opened, quotes, decoyQuote: decoy.id as string, funding };
}
