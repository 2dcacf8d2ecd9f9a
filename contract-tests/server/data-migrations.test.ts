// The migrations that rewrite stored data, each run on rows shaped as an earlier version stored
// them: the rows come out as the current contract answers them. Driven directly on a migrated
// database of this file's own (PGlite in memory, or PostgreSQL); each migration's `up` is run again
// on the legacy rows, which it must also leave alone once done.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import * as businessBeneficiaryFullName from '../../server/db/migrations/0013_business_beneficiary_full_name.ts';
import * as webhookBodiesWithoutTaxId from '../../server/db/migrations/0014_webhook_bodies_without_tax_id.ts';
import * as kybStatusAbsentUntilVerified from '../../server/db/migrations/0015_kyb_status_absent_until_verified.ts';
import * as exchangeRatesInWholeUnits from '../../server/db/migrations/0016_exchange_rates_in_whole_units.ts';
import { hasOwnDatabase, ownDatabase } from '../support/own-database.ts';

const own = ownDatabase('datamigrations', async (db) => void (await migrateToLatest(db)));
const id = (prefix: string) => `${prefix}:${randomBytes(8).toString('hex')}`;
const at = new Date('2026-01-01T00:00:00.000Z');
/** A migration sees a database of no particular schema. */
const untyped = () => own.db as unknown as Kysely<unknown>;

async function newPlatform(): Promise<string> {
  const platformId = id('PlatformConfig');
  await sql`insert into platforms (id, name, uma_domain, created_at, updated_at) values (${platformId}, 'Migration test', 'migration.test', ${at}, ${at})`.execute(own.db);
  return platformId;
}

async function insertExternalAccount(platformId: string, accountInfo: object): Promise<string> {
  const accountId = id('ExternalAccount');
  await sql`insert into external_accounts (id, platform_id, currency, status, account_type, account_info, primary_identifier, created_at, updated_at)
    values (${accountId}, ${platformId}, 'EUR', 'ACTIVE', 'EUR_ACCOUNT', ${JSON.stringify(accountInfo)}::jsonb, ${accountId}, ${at}, ${at})`.execute(own.db);
  return accountId;
}

const accountInfoOf = async (accountId: string) => (await sql<{ info: Record<string, unknown> }>`select account_info as info from external_accounts where id = ${accountId}`.execute(own.db)).rows[0]?.info;

describe.skipIf(!hasOwnDatabase)('data migrations', () => {
  it('0013: a business beneficiary stored with legalName is named by fullName; individuals and accounts without a beneficiary are left alone', async () => {
    const platformId = await newPlatform();
    const iban = { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606' };
    const business = await insertExternalAccount(platformId, { ...iban, beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Northwind Payouts SAS', taxId: '12-3456789' } });
    const individual = await insertExternalAccount(platformId, { ...iban, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    const none = await insertExternalAccount(platformId, iban);
    await businessBeneficiaryFullName.up(untyped());
    expect(await accountInfoOf(business)).toEqual({ ...iban, beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS', taxId: '12-3456789' } });
    expect(await accountInfoOf(individual)).toEqual({ ...iban, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } });
    expect(await accountInfoOf(none)).toEqual(iban);
    await businessBeneficiaryFullName.up(untyped());
    expect((await accountInfoOf(business))?.beneficiary).toEqual({ beneficiaryType: 'BUSINESS', fullName: 'Northwind Payouts SAS', taxId: '12-3456789' });
  });

  it('0014: a stored customer-status event of a business loses businessInfo.taxId; other events keep what they hold', async () => {
    const platformId = await newPlatform();
    const event = async (type: string, data: object) => {
      const eventId = id('Event');
      await sql`insert into webhook_outbox (id, platform_id, type, payload, status, created_at)
        values (${eventId}, ${platformId}, ${type}, ${JSON.stringify({ id: eventId, type, timestamp: at.toISOString(), data })}::jsonb, 'PENDING', ${at})`.execute(own.db);
      return eventId;
    };
    const payloadOf = async (eventId: string) => (await sql<{ payload: { data: Record<string, unknown> } }>`select payload from webhook_outbox where id = ${eventId}`.execute(own.db)).rows[0]?.payload.data;
    const kyb = await event('CUSTOMER_KYB_APPROVED', { id: 'Customer:1', kybStatus: 'APPROVED', businessInfo: { legalName: 'Acme', taxId: '12-3456789' } });
    const other = await event('TEST', { message: 'taxId', businessInfo: { taxId: 'not a customer event' } });
    await webhookBodiesWithoutTaxId.up(untyped());
    expect(await payloadOf(kyb)).toEqual({ id: 'Customer:1', kybStatus: 'APPROVED', businessInfo: { legalName: 'Acme' } });
    expect(await payloadOf(other)).toEqual({ message: 'taxId', businessInfo: { taxId: 'not a customer event' } });
  });

  it('0015: a business stored UNVERIFIED has no kybStatus; decided businesses and individuals keep theirs', async () => {
    const platformId = await newPlatform();
    const customer = async (type: string, kyc: string | null, kyb: string | null) => {
      const customerId = id('Customer');
      await sql`insert into customers (id, platform_id, platform_customer_id, customer_type, currencies, uma_address, kyc_status, kyb_status, profile, created_at, updated_at)
        values (${customerId}, ${platformId}, ${customerId}, ${type}, '{USD}', ${`$${customerId.slice(-8)}@migration.test`}, ${kyc}, ${kyb}, '{}'::jsonb, ${at}, ${at})`.execute(own.db);
      return customerId;
    };
    const statusOf = async (customerId: string) => (await sql<{ kyc: string | null; kyb: string | null }>`select kyc_status as kyc, kyb_status as kyb from customers where id = ${customerId}`.execute(own.db)).rows[0];
    const unverified = await customer('BUSINESS', null, 'UNVERIFIED');
    const approved = await customer('BUSINESS', null, 'APPROVED');
    const person = await customer('INDIVIDUAL', 'UNVERIFIED', null);
    await kybStatusAbsentUntilVerified.up(untyped());
    expect(await statusOf(unverified)).toEqual({ kyc: null, kyb: null });
    expect(await statusOf(approved)).toEqual({ kyc: null, kyb: 'APPROVED' });
    expect(await statusOf(person)).toEqual({ kyc: 'UNVERIFIED', kyb: null });
  });

  it('0016: stored exchange rates across decimals are rescaled to whole units; same-decimals ones are left alone', async () => {
    const platformId = await newPlatform();
    const quote = async (sending: string, receiving: string, exchangeRate: number) => {
      const quoteId = id('Quote');
      await sql`insert into quotes (id, platform_id, state, source_type, sending_currency, receiving_currency, total_sending_amount, total_receiving_amount, fees_included, details, expires_at, created_at, updated_at)
        values (${quoteId}, ${platformId}, 'EXPIRED', 'ACCOUNT', ${sending}, ${receiving}, 100000, 1000000, 0, ${JSON.stringify({ exchangeRate, reference: 'QTE-1' })}::jsonb, ${at}, ${at}, ${at})`.execute(own.db);
      return quoteId;
    };
    const transaction = async (sending: [string, number], receiving: [string, number], exchangeRate: number) => {
      const transactionId = id('Transaction');
      const amountOf = ([code, decimals]: [string, number]) => ({ amount: 1, currency: { code, name: code, symbol: code, decimals } });
      const details = { exchangeRate, sentAmount: amountOf(sending), receivedAmount: amountOf(receiving) };
      await sql`insert into transactions (id, platform_id, type, status, amount, currency, details, created_at, updated_at)
        values (${transactionId}, ${platformId}, 'OUTGOING', 'COMPLETED', 1, ${sending[0]}, ${JSON.stringify(details)}::jsonb, ${at}, ${at})`.execute(own.db);
      return transactionId;
    };
    const rateOf = async (table: 'quotes' | 'transactions', rowId: string) =>
      (await sql<{ rate: number }>`select (details ->> 'exchangeRate')::float8 as rate from ${sql.table(table)} where id = ${rowId}`.execute(own.db)).rows[0]?.rate;
    // Cents per satoshi, satoshis per cent, yen per cent: as an earlier version stored them.
    const usdBtc = await quote('USD', 'BTC', 0.095238095);
    const btcUsd = await quote('BTC', 'USD', 10.5);
    const usdJpy = await quote('USD', 'JPY', 0.66093853);
    const usdEur = await quote('USD', 'EUR', 1.087);
    const txUsdBtc = await transaction(['USD', 2], ['BTC', 8], 0.095238095);
    const txUsdUsd = await transaction(['USD', 2], ['USD', 2], 1);
    await exchangeRatesInWholeUnits.up(untyped());
    expect(await rateOf('quotes', usdBtc)).toBe(95238.095);
    expect(await rateOf('quotes', btcUsd)).toBe(0.0000105);
    expect(await rateOf('quotes', usdJpy)).toBe(0.0066093853);
    expect(await rateOf('quotes', usdEur)).toBe(1.087);
    expect(await rateOf('transactions', txUsdBtc)).toBe(95238.095);
    expect(await rateOf('transactions', txUsdUsd)).toBe(1);
  });
});
