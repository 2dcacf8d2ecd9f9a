// Internal and external accounts: a customer's accounts and the platform's, the sandbox's
// beneficiary name check by suffix, duplicates, deletion (INACTIVE, still readable), the default UMA
// deposit account.
import type { Check } from '../check.ts';
import { accountInfo, accountOf, accountsOf, externalAccount, individual, type ExternalAccount, type InternalAccount, type Page } from '../fixtures.ts';
import type { World } from '../world.ts';
import { check, enc, ids } from './define.ts';

const SANDBOX = 'sandbox guide: the beneficiary name check by the last 3 digits';
const customerAccount = (t: World, id: string) => t.call('GET', `/customers/external-accounts/${enc(id)}`);
const platformAccount = (t: World, id: string) => t.call('GET', `/platform/external-accounts/${enc(id)}`);
const listOf = async (t: World, customerId: string) =>
  t.expect<Page<ExternalAccount>>(await t.call('GET', '/customers/external-accounts', { query: { customerId, limit: 100 } }), 200, 'listCustomerExternalAccounts answers 200').data;
const createPlatform = async (t: World, body: Record<string, unknown>) =>
  t.expect<ExternalAccount>(await t.call('POST', '/platform/external-accounts', { body, key: t.key() }), 201, 'a created platform external account is answered 201 (createPlatformExternalAccount)');

export function accountChecks(): Check[] {
  return [
    check('internal-accounts.get', { operations: ['getInternalAccount', 'listCustomerInternalAccounts'], status: 200, rule: "an internal account reads as it is listed: the customer's, ACTIVE, with funding instructions (getInternalAccount, InternalAccount)" }, async (t) => {
      const customer = await individual(t, { currencies: ['USD', 'EUR'] });
      const accounts = await accountsOf(t, customer.id);
      t.is.equal(accounts.length, 2, 'one account per currency');
      for (const account of accounts) {
        t.is.equal(t.expect(await t.call('GET', `/internal-accounts/${enc(account.id)}`), 200, 'getInternalAccount answers 200'), account, 'getInternalAccount answers the account as listed');
        t.is.ok(account.fundingPaymentInstructions.length > 0, 'an internal account says how to fund it (spec: InternalAccount.fundingPaymentInstructions)', 'instructions', () => 'none');
      }
      const usd = t.expect<Page<InternalAccount>>(await t.call('GET', '/customers/internal-accounts', { query: { customerId: customer.id, currency: 'EUR' } }), 200, 'listCustomerInternalAccounts answers 200');
      t.is.equal(usd.data.map((a) => a.balance.currency.code), ['EUR'], 'the currency filter keeps the EUR account only');
    }),

    check('internal-accounts.platform', { operations: ['listPlatformInternalAccounts', 'getInternalAccount'], status: 200, rule: "the platform's own internal accounts have no customer and read back the same (listPlatformInternalAccounts)" }, async (t) => {
      const listed = t.expect<Page<InternalAccount>>(await t.call('GET', '/platform/internal-accounts', { query: { limit: 100 } }), 200, 'listPlatformInternalAccounts answers 200');
      t.is.ok(listed.data.length > 0, 'a platform holds internal accounts in its currencies', 'an account', () => 'none');
      for (const account of listed.data) t.is.ok(account.customerId === undefined, "the platform's accounts have no customerId", 'no customerId', () => String(account.customerId));
      const [first] = listed.data;
      if (first !== undefined) t.is.equal(t.expect(await t.call('GET', `/internal-accounts/${enc(first.id)}`), 200, 'getInternalAccount answers 200'), first, 'getInternalAccount answers the account as listed');
    }),

    check('external-accounts.create', { operations: ['createCustomerExternalAccount', 'getCustomerExternalAccount', 'listCustomerExternalAccounts'], status: 201, rule: `a customer's bank account is ACTIVE, holds what was sent and is name-MATCHED (any other ending), and reads back the same (${SANDBOX})`, needs: ['state', 'sandbox'] }, async (t) => {
      const customer = await individual(t);
      const info = accountInfo.usd();
      const reply = await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', platformAccountId: t.uid(), accountInfo: info }, key: t.key() });
      const account = t.expect<ExternalAccount>(reply, 201, 'createCustomerExternalAccount answers 201');
      t.is.contains(account, { status: 'ACTIVE', currency: 'USD', customerId: customer.id, defaultUmaDepositAccount: false, accountInfo: info, beneficiaryVerificationStatus: 'MATCHED' }, `the account as sent, MATCHED (${SANDBOX})`);
      t.is.equal(t.expect(await customerAccount(t, account.id), 200, 'getCustomerExternalAccount answers 200'), account, 'getCustomerExternalAccount answers the account as created');
      t.is.equal(await listOf(t, customer.id), [account], 'listCustomerExternalAccounts lists it');
    }),

    check('external-accounts.name-check', { operations: ['createCustomerExternalAccount'], status: 201, rule: `account numbers ending in 102 NOT_MATCHED, 103 PARTIAL_MATCH, 104 PENDING, 106 UNSUPPORTED, 107 CHECKED_BY_RECEIVING_FI; 105 is 400 INVALID_BANK_ACCOUNT and nothing is stored (${SANDBOX})`, needs: ['state', 'sandbox'], tags: ['sandbox-outcomes'] }, async (t) => {
      const customer = await individual(t);
      const expected = { '102': 'NOT_MATCHED', '103': 'PARTIAL_MATCH', '104': 'PENDING', '106': 'UNSUPPORTED', '107': 'CHECKED_BY_RECEIVING_FI' } as const;
      for (const [suffix, status] of Object.entries(expected)) {
        const account = await externalAccount(t, customer.id, 'USD', accountInfo.usd(suffix));
        t.is.equal(account.beneficiaryVerificationStatus, status, `suffix ${suffix}: ${status} (${SANDBOX})`);
      }
      const before = (await listOf(t, customer.id)).length;
      const refused = await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', accountInfo: accountInfo.usd('105') }, key: t.key() });
      t.expectError(refused, 400, 'INVALID_BANK_ACCOUNT', `suffix 105 is refused (${SANDBOX})`);
      t.is.equal((await listOf(t, customer.id)).length, before, 'a refused account is not stored');
    }),

    check('external-accounts.409-duplicate', { operations: ['createCustomerExternalAccount'], status: 409, rule: 'the same account twice for one owner is 409 EXTERNAL_ACCOUNT_ALREADY_EXISTS; another owner may register it, and a deleted one can be registered again (errors guide)' }, async (t) => {
      const customer = await individual(t);
      const info = accountInfo.usd();
      const original = await externalAccount(t, customer.id, 'USD', info);
      const again = await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', accountInfo: info }, key: t.key() });
      t.expectError(again, 409, 'EXTERNAL_ACCOUNT_ALREADY_EXISTS', 'an owner registers an account once');
      await externalAccount(t, (await individual(t)).id, 'USD', info);
      t.expect(await t.call('DELETE', `/customers/external-accounts/${enc(original.id)}`), 204, 'deleteCustomerExternalAccount answers 204');
      const renewed = await externalAccount(t, customer.id, 'USD', info);
      t.is.ok(renewed.id !== original.id, 'a deleted account registered again is a new account', 'a new id', () => renewed.id);
    }),

    check('external-accounts.400-currency-mismatch', { operations: ['createCustomerExternalAccount'], status: 400, rule: 'a currency the accountType does not hold is 400 CURRENCY_MISMATCH (errors guide)' }, async (t) => {
      const customer = await individual(t);
      t.expectError(await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'EUR', accountInfo: accountInfo.usd() }, key: t.key() }), 400, 'CURRENCY_MISMATCH', 'a USD_ACCOUNT holds USD');
    }),

    check('external-accounts.410', { operations: ['createCustomerExternalAccount'], status: 410, rule: 'a deleted customer gets no new external account: 410 CUSTOMER_DELETED (errors guide)' }, async (t) => {
      const customer = await individual(t);
      t.expect(await t.call('DELETE', `/customers/${enc(customer.id)}`), 200, 'deleteCustomer answers 200');
      t.expectError(await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', accountInfo: accountInfo.usd() }, key: t.key() }), 410, 'CUSTOMER_DELETED', 'no new account for a deleted customer');
    }),

    check('external-accounts.delete', { operations: ['deleteCustomerExternalAccount', 'getCustomerExternalAccount'], status: 204, rule: 'a deleted external account stays readable as INACTIVE and leaves the list (deleteCustomerExternalAccount)' }, async (t) => {
      const customer = await individual(t);
      const account = await externalAccount(t, customer.id, 'USD', accountInfo.usd());
      t.expect(await t.call('DELETE', `/customers/external-accounts/${enc(account.id)}`), 204, 'deleteCustomerExternalAccount answers 204');
      t.is.contains(t.expect(await customerAccount(t, account.id), 200, 'a deleted account stays readable'), { id: account.id, status: 'INACTIVE' }, 'a deleted account is INACTIVE');
      t.is.equal(await listOf(t, customer.id), [], 'a deleted account leaves the list');
    }),

    check('external-accounts.default-uma-deposit', { operations: ['createCustomerExternalAccount'], status: 201, rule: "a new default UMA deposit account replaces the customer's previous default (ExternalAccount.defaultUmaDepositAccount)" }, async (t) => {
      const customer = await individual(t, { currencies: ['USD', 'EUR'] });
      const first = await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: accountInfo.usd() }, key: t.key() });
      const one = t.expect<ExternalAccount>(first, 201, 'createCustomerExternalAccount answers 201');
      const second = t.expect<ExternalAccount>(await t.call('POST', '/customers/external-accounts', { body: { customerId: customer.id, currency: 'EUR', defaultUmaDepositAccount: true, accountInfo: accountInfo.eur() }, key: t.key() }), 201, 'createCustomerExternalAccount answers 201');
      t.is.equal(t.expect<ExternalAccount>(await customerAccount(t, one.id), 200, 'getCustomerExternalAccount answers 200').defaultUmaDepositAccount, false, 'the previous default is no longer the default');
      t.is.equal(ids((await listOf(t, customer.id)).filter((a) => a.defaultUmaDepositAccount === true)), [second.id], 'a customer has one default UMA deposit account');
    }),

    check('external-accounts.platform', { operations: ['createPlatformExternalAccount', 'getPlatformExternalAccount', 'listPlatformExternalAccounts', 'deletePlatformExternalAccount', 'getCustomerExternalAccount'], status: 201, rule: "the platform's own external accounts have no customer, are read only at /platform/external-accounts (404 at /customers/...), and are deleted to INACTIVE (createPlatformExternalAccount…)", needs: ['state', 'sandbox'] }, async (t) => {
      const info = accountInfo.usd();
      const account = await createPlatform(t, { currency: 'USD', platformAccountId: t.uid(), accountInfo: info });
      t.is.contains(account, { status: 'ACTIVE', currency: 'USD', accountInfo: info, beneficiaryVerificationStatus: 'MATCHED' }, 'the account as sent');
      t.is.ok(!('customerId' in account), "a platform account has no customerId", 'none', () => String(account.customerId));
      t.is.equal(t.expect(await platformAccount(t, account.id), 200, 'getPlatformExternalAccount answers 200'), account, 'getPlatformExternalAccount answers it as created');
      t.expectError(await customerAccount(t, account.id), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND', "a platform account is not a customer's");
      const listed = t.expect<Page<ExternalAccount>>(await t.call('GET', '/platform/external-accounts', { query: { currency: 'USD', limit: 100 } }), 200, 'listPlatformExternalAccounts answers 200');
      t.is.ok(listed.data.some((a) => a.id === account.id), 'listPlatformExternalAccounts lists it (newest first)', account.id, () => JSON.stringify(ids(listed.data)));
      const duplicate = await t.call('POST', '/platform/external-accounts', { body: { currency: 'USD', accountInfo: info }, key: t.key() });
      t.expectError(duplicate, 409, 'EXTERNAL_ACCOUNT_ALREADY_EXISTS', 'the platform registers an account once');
      t.expect(await t.call('DELETE', `/platform/external-accounts/${enc(account.id)}`), 204, 'deletePlatformExternalAccount answers 204');
      t.is.contains(t.expect(await platformAccount(t, account.id), 200, 'a deleted account stays readable'), { status: 'INACTIVE' }, 'a deleted account is INACTIVE');
    }),

    check('external-accounts.platform-105', { operations: ['createPlatformExternalAccount'], status: 400, rule: `the platform's accounts get the same name check: 105 is 400 INVALID_BANK_ACCOUNT (${SANDBOX})`, needs: ['state', 'sandbox'], tags: ['sandbox-outcomes'] }, async (t) => {
      t.expectError(await t.call('POST', '/platform/external-accounts', { body: { currency: 'USD', accountInfo: accountInfo.usd('105') }, key: t.key() }), 400, 'INVALID_BANK_ACCOUNT', `suffix 105 is refused (${SANDBOX})`);
      const pending = await createPlatform(t, { currency: 'EUR', accountInfo: accountInfo.eur('104') });
      t.is.equal(pending.beneficiaryVerificationStatus, 'PENDING', `suffix 104: PENDING (${SANDBOX})`);
    }),

    check('internal-accounts.funding-instructions', { operations: ['listCustomerInternalAccounts'], status: 200, rule: 'each internal account has its own funding reference, so deposits can be told apart (InternalAccount.fundingPaymentInstructions)' }, async (t) => {
      const customer = await individual(t, { currencies: ['USD', 'EUR', 'MXN'] });
      const references = (await accountsOf(t, customer.id)).flatMap((a) => a.fundingPaymentInstructions.map((f) => (f.accountOrWalletInfo as { reference?: string }).reference)).filter((r) => r !== undefined);
      t.is.equal(new Set(references).size, references.length, 'no two accounts share a funding reference');
      const usd = await accountOf(t, customer.id, 'USD');
      t.is.contains(usd.fundingPaymentInstructions[0]?.accountOrWalletInfo, { accountType: 'USD_ACCOUNT' }, 'a USD account is funded by a US bank transfer');
    }),
  ];
}
