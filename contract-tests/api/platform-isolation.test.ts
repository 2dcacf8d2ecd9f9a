// Everything is scoped to the token's platform: a second platform's token sees none of the first
// platform's objects (404, never 403, so ids reveal nothing) and cannot act on them. A second
// platform is added with `npm run platform:create`, which needs a database two processes can
// share: PostgreSQL.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, inject } from 'vitest';
import { api, client, idempotencyKey, itPostgres, target } from '../support/api.ts';
import { externalAccountInfo } from '../support/external-account-info.ts';
import { createIndividualCustomer, createToken, customerInternalAccount, fund } from '../support/factories.ts';
import type { PaymentsClient } from '../../client/index.ts';
import { createQuote } from '../support/quotes.ts';
import { CLIENT_KEY, wallets } from '../support/wallets.ts';
import { connectAgent } from '../support/agents.ts';

const root = resolve(import.meta.dirname, '..', '..');
let other: PaymentsClient;

beforeAll(async () => {
  if (target !== 'postgres') return;
  // Not execFileSync: a worker blocked for seconds misses the server closing its idle keep-alive
  // connections, and the next request (of this file or the next one the worker runs) fails on one.
  const { stdout: out } = await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/create-platform.ts', 'Other platform'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: inject('databaseUrl'), PAYMENTS_MASTER_KEY: inject('masterKey') },
    encoding: 'utf8',
  });
  other = client({ clientId: /clientId:\s+(\S+)/.exec(out)?.[1] ?? '', clientSecret: /clientSecret:\s+(\S+)/.exec(out)?.[1] ?? '' });
});

describe('platform isolation', () => {
  itPostgres("another platform's token cannot see or touch this platform's objects", async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe' });
    const customerId = customer.id;
    const accountId = (await customerInternalAccount(customerId, 'USD')).id;
    const token = await createToken(['VIEW']);

    expect((await other.GET('/customers/{customerId}', { params: { path: { customerId } } })).response.status).toBe(404);
    expect((await other.GET('/customers', { params: { query: { platformCustomerId: customer.platformCustomerId } } })).data?.totalCount).toBe(0);
    expect((await other.DELETE('/customers/{customerId}', { params: { path: { customerId } } })).response.status).toBe(404);
    expect((await other.GET('/internal-accounts/{accountId}', { params: { path: { accountId } } })).response.status).toBe(404);
    expect((await other.GET('/customers/internal-accounts', { params: { query: { customerId } } })).data?.totalCount).toBe(0);
    const funding = await fund(accountId, 100, idempotencyKey(), { via: other });
    expect(funding.response.status).toBe(404);
    const external = await other.POST('/customers/external-accounts', { body: { customerId, currency: 'USD', accountInfo: externalAccountInfo.usd() } });
    expect(external.response.status).toBe(404);
    expect((await other.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } })).response.status).toBe(404);
    expect((await other.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } })).response.status).toBe(404);

    // Nothing changed for the owner.
    expect((await api.GET('/customers/{customerId}', { params: { path: { customerId } } })).data?.isDeleted).toBe(false);
    expect((await api.GET('/internal-accounts/{accountId}', { params: { path: { accountId } } })).data?.balance.amount).toBe(0);
    expect((await api.GET('/tokens/{tokenId}', { params: { path: { tokenId: token.id } } })).response.status).toBe(200);
    // The other platform has its own configuration and accounts.
    const { data: mine } = await api.GET('/config');
    const { data: theirs } = await other.GET('/config');
    expect(theirs?.id).not.toBe(mine?.id);
    const { data: theirAccounts } = await other.GET('/platform/internal-accounts');
    const { data: myAccounts } = await api.GET('/platform/internal-accounts');
    expect(theirAccounts?.data.map((a) => a.id)).not.toEqual(expect.arrayContaining(myAccounts?.data.map((a) => a.id) ?? []));
  });

  itPostgres("quotes and lookups stay with their platform; an invitation is read and claimed by another platform, cancelled only by its creator", async () => {
    const customer = await createIndividualCustomer({ currencies: ['USD', 'EUR'] });
    const lookup = await api.GET('/receiver/uma/{receiverUmaAddress}', { params: { path: { receiverUmaAddress: '$success.eur@sandbox.uma.money' }, query: { customerId: customer.id } } });
    const usd = (await customerInternalAccount(customer.id, 'USD')).id;
    const quote = await createQuote({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
      lookupId: lookup.data?.lookupId ?? '',
      senderCustomerInfo: { FULL_NAME: 'Jane Doe' },
    });
    expect((await other.GET('/quotes/{quoteId}', { params: { path: { quoteId: quote.id } } })).response.status).toBe(404);
    expect((await other.POST('/quotes/{quoteId}/execute', { params: { path: { quoteId: quote.id } } })).response.status).toBe(404);

    const { data: invitation } = await api.POST('/invitations', { body: { inviterUma: '$jane@sandbox.uma.money' } });
    const invitationCode = invitation?.code ?? '';
    expect((await other.GET('/invitations/{invitationCode}', { params: { path: { invitationCode } } })).data).toEqual(invitation);
    const refused = await other.POST('/invitations/{invitationCode}/cancel', { params: { path: { invitationCode } } });
    expect(refused.response.status).toBe(403);
    const claimed = await other.POST('/invitations/{invitationCode}/claim', { params: { path: { invitationCode } }, body: { inviteeUma: '$carlos@wallet.example.com' } });
    expect(claimed.data).toMatchObject({ status: 'CLAIMED', inviteeUma: '$carlos@wallet.example.com' });
    expect((await api.GET('/invitations/{invitationCode}', { params: { path: { invitationCode } } })).data).toEqual(claimed.data);
  });

  itPostgres("an Embedded Wallet's credentials and sessions are this platform's only", async () => {
    const { walletId, otp, session } = await wallets.walletWithSession();
    const accountId = walletId;
    const credentialId = otp.id;
    const statuses = [
      (await other.GET('/auth/credentials', { params: { query: { accountId } } })).response.status,
      (await other.GET('/auth/sessions', { params: { query: { accountId } } })).response.status,
      (await other.POST('/auth/credentials', { body: { type: 'OAUTH', accountId, oidcToken: 'a.b.c' } })).response.status,
      (await other.POST('/auth/credentials/{credentialId}/challenge', { params: { path: { credentialId } } })).response.status,
      (await other.POST('/auth/credentials/{credentialId}/verify', { params: { path: { credentialId } }, body: { type: 'EMAIL_OTP', otp: '000000', clientPublicKey: CLIENT_KEY } })).response.status,
      (await other.DELETE('/auth/credentials/{credentialId}', { params: { path: { credentialId } } })).response.status,
      (await other.DELETE('/auth/sessions/{sessionId}', { params: { path: { sessionId: session.id } } })).response.status,
      (await other.PATCH('/internal-accounts/{accountId}', { params: { path: { accountId } }, body: { privateEnabled: true } })).response.status,
      (await other.POST('/internal-accounts/{accountId}/export', { params: { path: { accountId } }, body: { clientPublicKey: CLIENT_KEY } })).response.status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    expect((await wallets.listSessions(walletId)).data.map((s) => s.id)).toEqual([session.id]);
    expect((await wallets.listCredentials(walletId)).data.map((c) => c.id)).toEqual([credentialId]);
  });

  itPostgres("an agent, its codes and its actions are this platform's only", async () => {
    const agent = await connectAgent();
    const agentId = agent.agentId;
    const statuses = [
      (await other.GET('/agents/{agentId}', { params: { path: { agentId } } })).response.status,
      (await other.PATCH('/agents/{agentId}', { params: { path: { agentId } }, body: { isPaused: true } })).response.status,
      (await other.PATCH('/agents/{agentId}/policy', { params: { path: { agentId } }, body: { permissions: ['VIEW_TRANSACTIONS'] } })).response.status,
      (await other.POST('/agents/{agentId}/device-codes', { params: { path: { agentId } } })).response.status,
      (await other.GET('/agents/{agentId}/actions', { params: { path: { agentId } } })).response.status,
      (await other.DELETE('/agents/{agentId}', { params: { path: { agentId } } })).response.status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    expect((await other.GET('/agents', { params: { query: { customerId: agent.customerId } } })).data?.totalCount).toBe(0);
    expect((await agent.via.GET('/agents/me')).data).toMatchObject({ id: agentId, isPaused: false });
  });
});
