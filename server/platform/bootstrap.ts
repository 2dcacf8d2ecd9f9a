// Sandbox platforms: the first start of an empty database creates one (with an API token holding
// every permission, whose credentials come from PAYMENTS_CLIENT_ID / PAYMENTS_CLIENT_SECRET when set,
// otherwise random and returned once to be printed); `npm run platform:create` adds more.
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { newId, now } from '../http/ids.ts';
import { createTokenRow } from '../tokens/tokens.handlers.ts';
import { findLiveTokenByClientId } from '../tokens/tokens.repository.ts';
import { openInternalAccounts } from '../internal-accounts/internal-accounts.repository.ts';
import { findAnyPlatform, insertPlatform } from './platform.repository.ts';

export const SANDBOX_CURRENCIES = ['USD', 'EUR', 'GBP', 'MXN', 'AED', 'BTC'];

export interface Bootstrap {
  platformId: string;
  created?: { clientId: string; clientSecret: string };
}

/** A new sandbox platform with its own internal accounts and a MANAGE+TRANSACT+VIEW token. */
export async function createSandboxPlatform(db: Db, name: string, credentials?: { clientId: string; clientSecret: string }) {
  const at = now();
  const platform = await insertPlatform(db, {
    id: newId('PlatformConfig'),
    name,
    uma_domain: 'sandbox.uma.money',
    webhook_endpoint: null,
    webhook_signing_secret: null,
    supported_currencies: SANDBOX_CURRENCIES.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 100_000_000_000, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] })),
    created_at: at,
    updated_at: at,
  });
  await openInternalAccounts(db, { platformId: platform.id, customerId: null }, SANDBOX_CURRENCIES, at);
  const { row, clientSecret } = await createTokenRow(db, platform.id, 'Sandbox bootstrap token', ['MANAGE', 'TRANSACT', 'VIEW'], credentials);
  return { platformId: platform.id, clientId: row.client_id, clientSecret };
}

export async function bootstrapPlatform(db: Kysely<Database>, config: Pick<Config, 'bootstrapClientId' | 'bootstrapClientSecret'>): Promise<Bootstrap> {
  return db.transaction().execute(async (trx) => {
    const wanted =
      config.bootstrapClientId !== undefined && config.bootstrapClientSecret !== undefined
        ? { clientId: config.bootstrapClientId, clientSecret: config.bootstrapClientSecret }
        : undefined;
    const platform = await findAnyPlatform(trx);
    if (platform === undefined) {
      const created = await createSandboxPlatform(trx, 'Sandbox platform', wanted);
      return { platformId: created.platformId, created: wanted === undefined ? { clientId: created.clientId, clientSecret: created.clientSecret } : undefined };
    }
    // An existing platform gets the configured token if it does not have it yet.
    if (wanted !== undefined && (await findLiveTokenByClientId(trx, wanted.clientId)) === undefined) {
      await createTokenRow(trx, platform.id, 'Sandbox bootstrap token', ['MANAGE', 'TRANSACT', 'VIEW'], wanted);
    }
    return { platformId: platform.id };
  });
}
