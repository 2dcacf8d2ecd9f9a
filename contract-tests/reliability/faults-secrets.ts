// Every kind of secret the service hands out once, created on a cluster's server for the database
// dump check: API token secrets, an agent's device codes and access token, an Embedded Wallet
// session's signing key and exported credentials, the webhook signing secret, identity numbers
// (of a customer, a beneficial owner, a passport document) and tax ids (of a business customer,
// also after its verification's webhook, and of an account's business beneficiary). Each is also shown to still work, so
// a dump without it means it is stored sealed or hashed, not lost.
import { expect } from 'vitest';
import { call } from '../support/cluster.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { ok, type Token } from './faults-helpers.ts';

const CLIENT_KEY = '028254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a';
/** The sandbox's valid wallet signature (simulation/embedded-wallet.ts). */
const SIGNATURE = 'sandbox-valid-signature';
const PDF = Buffer.from('%PDF-1.7\n% a test passport scan\n%%EOF\n');

const policy = { permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } };

/** Creates one of each secret; returns them by name, plus a value that must be in the dump (the data is there). */
export async function createEverySecret(server: ServerProcess, token: Token, webhookUrl: string): Promise<{ secrets: Record<string, string>; marker: string }> {
  const created = await ok(server, token, 'POST', '/tokens', { name: 'dumped', permissions: ['VIEW'] }, 201, { 'Idempotency-Key': 'dump-1' });
  const clientSecret = created.clientSecret as string;
  const signingSecret = (await ok(server, token, 'PATCH', '/config', { webhookEndpoint: webhookUrl }, 200)).webhookSigningSecret as string;

  await ok(server, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', idType: 'SSN', identifier: '123-45-6789' }, 201);
  const business = await ok(server, token, 'POST', '/customers', { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme', country: 'US', registrationNumber: 'C4829123', taxId: '12-3456789' } }, 201);
  // Its verification queues a customer-status webhook in the outbox (whose body leaves the tax id out).
  expect((await ok(server, token, 'POST', '/verifications', { customerId: business.id }, 200)).verificationStatus).toBe('APPROVED');
  const supplier = await ok(server, token, 'POST', '/customers/external-accounts', {
    customerId: business.id,
    currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS', taxId: 'FR40552120222' } },
  }, 201);
  const marker = 'Lovelace';
  await ok(server, token, 'POST', '/beneficial-owners', {
    customerId: business.id,
    roles: ['DIRECTOR'],
    personalInfo: { firstName: 'Ada', lastName: marker, birthDate: '1990-01-01', nationality: 'GB', address: { line1: '1 Main St', postalCode: '1', country: 'GB' }, idType: 'PASSPORT', identifier: 'GB-PASS-998877' },
  }, 201);
  const form = new FormData();
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'passport.pdf');
  form.append('documentHolder', business.id as string);
  form.append('documentType', 'PASSPORT');
  form.append('country', 'GB');
  form.append('documentNumber', 'P-55501234');
  const upload = await fetch(`${server.baseUrl}/documents`, { method: 'POST', headers: { Authorization: `Basic ${btoa(`${token.clientId}:${token.clientSecret}`)}` }, body: form });
  const document = (await upload.json()) as Record<string, unknown>;
  expect(upload.status, JSON.stringify(document)).toBe(201);

  // An agent: its first device code redeemed for an access token, a second agent's code left pending.
  const customer = await ok(server, token, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Agent Owner', currencies: ['USD'], embeddedWalletCurrencies: ['USD'] }, 201);
  const agent = await ok(server, token, 'POST', '/agents', { name: 'Dumped agent', customerId: customer.id, policy }, 201, { 'Idempotency-Key': 'dump-agent' });
  const redeemedCode = (agent.deviceCode as { code: string }).code;
  const redeemed = await fetch(`${server.baseUrl}/agents/device-codes/${encodeURIComponent(redeemedCode)}/redeem`, { method: 'POST' });
  expect(redeemed.status).toBe(200);
  const accessToken = ((await redeemed.json()) as { accessToken: string }).accessToken;
  const pending = await ok(server, token, 'POST', '/agents', { name: 'Pending agent', customerId: customer.id, policy }, 201, { 'Idempotency-Key': 'dump-agent-2' });
  const pendingCode = (pending.deviceCode as { code: string }).code;

  // An Embedded Wallet: a session opened with the e-mailed code, and its credentials exported.
  const wallets = await ok(server, token, 'GET', `/customers/internal-accounts?customerId=${customer.id as string}&type=EMBEDDED_WALLET`, undefined, 200);
  const walletId = ((wallets.data as { id: string }[])[0] as { id: string }).id;
  const credential = await ok(server, token, 'POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId, email: 'jane.doe@example.com' }, 201);
  const session = await ok(server, token, 'POST', `/auth/credentials/${credential.id as string}/verify`, { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: CLIENT_KEY }, 200);
  const challenge = await ok(server, token, 'POST', `/internal-accounts/${walletId}/export`, { clientPublicKey: CLIENT_KEY }, 202);
  const exported = await ok(server, token, 'POST', `/internal-accounts/${walletId}/export`, { clientPublicKey: CLIENT_KEY }, 200, { 'Service-Wallet-Signature': SIGNATURE, 'Request-Id': challenge.requestId as string });

  // The secrets still work: the token replay shows its secret, the webhook verifies, the agent authenticates, the document shows its number.
  expect((await ok(server, token, 'POST', '/tokens', { name: 'dumped', permissions: ['VIEW'] }, 201, { 'Idempotency-Key': 'dump-1' })).clientSecret).toBe(clientSecret);
  expect((await ok(server, token, 'POST', '/sandbox/webhooks/test', undefined, 200)).response_status).toBe(200);
  const me = await fetch(`${server.baseUrl}/agents/me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(me.status).toBe(200);
  expect((await call(server, token, 'GET', `/documents/${document.id as string}`)).body?.documentNumber).toBe('P-55501234');
  expect((await call(server, token, 'GET', `/customers/${business.id as string}`)).body?.businessInfo).toMatchObject({ taxId: '12-3456789' });
  expect((await call(server, token, 'GET', `/customers/external-accounts/${supplier.id as string}`)).body?.accountInfo).toMatchObject({ beneficiary: { taxId: 'FR40552120222' } });

  return {
    marker,
    secrets: {
      'created token secret': clientSecret,
      'bootstrap token secret': token.clientSecret,
      'webhook signing secret': signingSecret,
      'webhook signing key (without whsec_)': signingSecret.replace(/^whsec_/, ''),
      'customer identity number': '123-45-6789',
      'beneficial owner identity number': 'GB-PASS-998877',
      'passport document number': 'P-55501234',
      'business tax id': '12-3456789',
      'business beneficiary tax id': 'FR40552120222',
      'redeemed device code': redeemedCode,
      'pending device code': pendingCode,
      'agent access token': accessToken,
      'wallet session signing key': session.encryptedSessionSigningKey as string,
      'exported wallet credentials': exported.encryptedWalletCredentials as string,
    },
  };
}
