// First start: an empty database gets a sandbox platform and one API token with every permission.
// Its credentials come from PAYMENTS_CLIENT_ID / PAYMENTS_CLIENT_SECRET when set, otherwise they
// are random and returned here once to be printed.
import type { Kysely } from 'kysely';
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

export async function bootstrapPlatform(db: Kysely<Database>, config: Pick<Config, 'bootstrapClientId' | 'bootstrapClientSecret'>): Promise<Bootstrap> {
  return db.transaction().execute(async (trx) => {
    const wanted =
      config.bootstrapClientId !== undefined && config.bootstrapClientSecret !== undefined
        ? { clientId: config.bootstrapClientId, clientSecret: config.bootstrapClientSecret }
        : undefined;
    let platform = await findAnyPlatform(trx);
    if (platform === undefined) {
      const at = now();
      platform = await insertPlatform(trx, {
        id: newId('PlatformConfig'),
        name: 'Sandbox platform',
        uma_domain: 'sandbox.uma.money',
        webhook_endpoint: null,
        webhook_signing_secret: null,
        supported_currencies: SANDBOX_CURRENCIES.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 100_000_000_000, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] })),
        created_at: at,
        updated_at: at,
      });
      await openInternalAccounts(trx, { platformId: platform.id, customerId: null }, SANDBOX_CURRENCIES, at);
    } else if (wanted === undefined || (await findLiveTokenByClientId(trx, wanted.clientId)) !== undefined) {
      return { platformId: platform.id };
    }
    const { row, clientSecret } = await createTokenRow(trx, platform.id, 'Sandbox bootstrap token', ['MANAGE', 'TRANSACT', 'VIEW'], wanted);
    return { platformId: platform.id, created: wanted === undefined ? { clientId: row.client_id, clientSecret } : undefined };
  });
}
