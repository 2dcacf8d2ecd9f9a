// The scale benchmark's seed: a small world made through the API on a fresh server, the same at
// every size, so that each list has rows of every kind for grow.ts to copy and each filter a value
// to ask for. A customer with 20 transactions, its accounts, agent and documents; a business with
// a beneficial owner and a verification; an API token; an Embedded Wallet with three sessions.
// Everything else is grown in SQL.
import { randomInt } from 'node:crypto';
import { CLIENT_KEY } from '../../contract-tests/kit/checks/wallet.ts';
import { authorization } from './processes.ts';

export interface World {
  /** The individual customer: USD and EUR accounts, a USD external account, 20 transactions. */
  customer: { id: string; platformCustomerId: string; umaAddress: string; usd: string; eur: string; external: string };
  business: { id: string; ownerId: string };
  agent: { id: string; accessToken: string };
  /** An Embedded Wallet (its internal account) and the credential that opened its sessions. */
  wallet: { accountId: string; credentialId: string };
  tokenName: string;
  /** When the seed was made: the time windows of the benchmark's filters are relative to it. */
  seededAt: Date;
}

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');

async function call<T>(base: string, method: string, path: string, body?: unknown, auth = authorization): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Page = { data: { id: string; type?: string; balance?: { currency: { code: string } } }[] };

export async function seedWorld(base: string): Promise<World> {
  const seededAt = new Date();
  const post = <T = { id: string }>(path: string, body?: unknown) => call<T>(base, 'POST', path, body);
  const customer = await post<{ id: string; umaAddress: string }>('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'seed-individual',
    fullName: 'Jane Doe',
    region: 'US',
    // GBP: no grown customer holds it, so its list is the seed customer alone at every size.
    currencies: ['USD', 'EUR', 'GBP'],
  });
  const accounts = await call<Page>(base, 'GET', `/customers/internal-accounts?customerId=${customer.id}`);
  const usd = accounts.data.find((a) => a.balance?.currency.code === 'USD')?.id ?? '';
  const eur = accounts.data.find((a) => a.balance?.currency.code === 'EUR')?.id ?? '';
  const external = await post('/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `${digits(9)}000`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'JPMorgan Chase Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
  });
  await post('/platform/external-accounts', {
    currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `${digits(9)}000`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'JPMorgan Chase Bank', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Seed Platform Inc.' } },
  });
  // 20 transactions: fundings, transfer-ins and transfer-outs, all COMPLETED.
  await post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000_000 });
  for (let i = 0; i < 10; i++) await post('/transfer-in', { source: { accountId: external.id }, destination: { accountId: usd }, amount: 1000 + i });
  for (let i = 0; i < 9; i++) await post('/transfer-out', { source: { accountId: usd }, destination: { accountId: external.id }, amount: 100 + i });

  const business = await post('/customers', { customerType: 'BUSINESS', platformCustomerId: 'seed-business', region: 'GB', currencies: ['USD'], businessInfo: { legalName: 'Acme Corporation', country: 'US' } });
  const owner = await post('/beneficial-owners', {
    customerId: business.id,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 40,
    personalInfo: { firstName: 'John', lastName: 'Smith', birthDate: '1978-11-05', nationality: 'US', address: { line1: '1200 Valencia Street', postalCode: '94110', country: 'US' }, idType: 'SSN', identifier: '987-65-4321' },
  });
  const form = new FormData();
  for (const [k, v] of Object.entries({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'US', documentNumber: '563891247' })) form.append(k, v);
  form.append('file', new Blob([new TextEncoder().encode('%PDF-1.7\n'.padEnd(1234, ' '))], { type: 'application/pdf' }), 'passport.pdf');
  await post('/documents', form);
  await post('/verifications', { customerId: business.id });
  const tokenName = 'seed token';
  await post('/tokens', { name: tokenName, permissions: ['VIEW'] });

  const created = await post<{ agent: { id: string }; deviceCode: { code: string } }>('/agents', {
    name: 'Seed agent',
    customerId: customer.id,
    policy: { permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } },
  });
  const redeemed = await fetch(`${base}/agents/device-codes/${created.deviceCode.code}/redeem`, { method: 'POST' });
  if (redeemed.status !== 200) throw new Error(`redeem: ${redeemed.status}`);
  const { accessToken } = (await redeemed.json()) as { accessToken: string };
  // One more transaction, by the agent: an action of its own (TRANSFER_IN) and the customer's 20th.
  await call(base, 'POST', '/agents/me/transfer-in', { source: { accountId: external.id }, destination: { accountId: usd }, amount: 500 }, `Bearer ${accessToken}`);

  // OAUTH verifies without a challenge: each verification of the credential opens a session.
  const holder = await post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'seed-wallet', fullName: 'Jane Doe', region: 'US', currencies: ['USD'], embeddedWalletCurrencies: ['USD'] });
  const wallets = await call<Page>(base, 'GET', `/customers/internal-accounts?customerId=${holder.id}&type=EMBEDDED_WALLET`);
  const walletId = wallets.data[0]?.id ?? '';
  const claims = { iss: 'https://accounts.google.com', sub: 'seed-wallet', email: 'jane.doe@example.com', iat: Math.floor(Date.now() / 1000) };
  const jwt = `${[{ alg: 'RS256', typ: 'JWT' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.')}.c2lnbmF0dXJl`;
  const credential = await post('/auth/credentials', { type: 'OAUTH', accountId: walletId, oidcToken: jwt });
  for (let i = 0; i < 3; i++) await post(`/auth/credentials/${credential.id}/verify`, { type: 'OAUTH', oidcToken: 'sandbox-valid-oidc-token', clientPublicKey: CLIENT_KEY });

  return {
    customer: { id: customer.id, platformCustomerId: 'seed-individual', umaAddress: customer.umaAddress, usd, eur, external: external.id },
    business: { id: business.id, ownerId: owner.id },
    agent: { id: created.agent.id, accessToken },
    wallet: { accountId: walletId, credentialId: credential.id },
    tokenName,
    seededAt,
  };
}
