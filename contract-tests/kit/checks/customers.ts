// Customers: create (individual, business, the defaults, one account per currency), the 409s, list
// filters, update, the soft delete and what a deleted customer answers.
import type { Check } from '../check.ts';
import { accountsOf, business, individual, type Customer, type Page } from '../fixtures.ts';
import type { World } from '../world.ts';
import { check, enc, ids, page } from './define.ts';

const get = (t: World, customerId: string) => t.call('GET', `/customers/${enc(customerId)}`);
const patch = (t: World, customerId: string, body: Record<string, unknown>) => t.call('PATCH', `/customers/${enc(customerId)}`, { body });
const remove = (t: World, customerId: string) => t.call('DELETE', `/customers/${enc(customerId)}`);
const currencies = async (t: World, customerId: string) => (await accountsOf(t, customerId)).map((a) => a.balance.currency.code).sort();

export function customerChecks(): Check[] {
  return [
    check('customers.create.individual', { operations: ['createCustomer', 'getCustomer'], status: 201, rule: 'a new individual is UNVERIFIED, holds what it was sent, never shows its identifier, and reads back the same (createCustomer, getCustomer)' }, async (t) => {
      const fields = { fullName: 'Jane Doe', region: 'US', currencies: ['USD', 'EUR'], email: 'jane.doe@example.com', birthDate: '1990-04-21', nationality: 'US', idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'US' };
      const created = await individual(t, fields);
      const { identifier: _secret, ...shown } = fields;
      t.is.contains(created, { ...shown, customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED', isDeleted: false }, 'createCustomer answers the customer as sent, UNVERIFIED (spec: IndividualCustomer)');
      t.is.ok(!('identifier' in created), 'identity numbers are never shown (spec: IndividualCustomer)', 'no identifier', () => 'an identifier');
      const read = t.expect(await get(t, created.id), 200, 'getCustomer answers 200');
      t.is.equal(read, created, 'getCustomer answers the customer as created');
    }),

    check('customers.create.business', { operations: ['createCustomer'], status: 201, rule: 'a new business has no kybStatus until its first verification, and holds its businessInfo (createCustomer, BusinessCustomer)' }, async (t) => {
      const created = await business(t, {}, { registrationNumber: 'C4829123' });
      t.is.contains(created, { customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Corporation', registrationNumber: 'C4829123' } }, 'createCustomer answers the business as sent (spec: BusinessCustomer)');
      t.is.ok(!('kybStatus' in created), 'a business has no kybStatus before its first verification (spec: BusinessCustomer.kybStatus)', 'no kybStatus', () => `kybStatus ${String(created.kybStatus)}`);
      t.is.equal(t.expect(await get(t, created.id), 200, 'getCustomer answers 200'), created, 'getCustomer answers the customer as created');
    }),

    check('customers.create.accounts', { operations: ['createCustomer', 'listCustomerInternalAccounts'], status: 201, rule: 'a new customer gets one ACTIVE internal account per currency, with a zero balance (createCustomer, InternalAccount)' }, async (t) => {
      const created = await individual(t, { currencies: ['USD', 'EUR', 'BTC'] });
      const accounts = await accountsOf(t, created.id);
      t.is.equal(accounts.map((a) => a.balance.currency.code).sort(), ['BTC', 'EUR', 'USD'], 'one internal account per currency of the customer');
      for (const account of accounts) t.is.contains(account, { customerId: created.id, status: 'ACTIVE', balance: { amount: 0 } }, 'a new account is ACTIVE and empty');
    }),

    check('customers.create.409-platform-customer-id', { operations: ['createCustomer', 'listCustomers'], status: 409, rule: 'a taken platformCustomerId is 409 PLATFORM_CUSTOMER_ID_EXISTS and nothing is created (errors guide)' }, async (t) => {
      const first = await individual(t);
      const again = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: first.platformCustomerId } });
      t.expectError(again, 409, 'PLATFORM_CUSTOMER_ID_EXISTS', 'platformCustomerId is unique per platform');
      const listed = page<Customer>(t, await t.call('GET', '/customers', { query: { platformCustomerId: first.platformCustomerId } }), 'listCustomers answers 200');
      t.is.equal(ids(listed.data), [first.id], 'the refused create made no customer');
    }),

    check('customers.create.409-uma-address', { operations: ['createCustomer'], status: 409, rule: 'an umaAddress taken by another customer, in any letter case of the domain, is 409 UMA_ADDRESS_EXISTS (errors guide; UmaAddress: the domain is compared case-insensitively)' }, async (t) => {
      const first = await individual(t);
      const [name, domain = ''] = first.umaAddress.split('@');
      for (const umaAddress of [first.umaAddress, `${name}@${domain.toUpperCase()}`]) {
        const reply = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: t.uid(), umaAddress } });
        t.expectError(reply, 409, 'UMA_ADDRESS_EXISTS', `an UMA address is one customer's (${umaAddress})`);
      }
    }),

    check('customers.list.filters', { operations: ['listCustomers'], status: 200, rule: 'listCustomers filters by platformCustomerId, customerType, currency, umaAddress, kycStatus and kybStatus (spec: its parameters)' }, async (t) => {
      const person = await individual(t, { currencies: ['USD', 'GBP'] });
      const company = await business(t);
      const count = async (query: Record<string, string>) => page<Customer>(t, await t.call('GET', '/customers', { query }), 'listCustomers answers 200').totalCount;
      t.is.equal(ids(page<Customer>(t, await t.call('GET', '/customers', { query: { umaAddress: person.umaAddress } }), 'listCustomers answers 200').data), [person.id], 'umaAddress selects its customer');
      t.is.equal(await count({ customerType: 'BUSINESS', platformCustomerId: person.platformCustomerId }), 0, 'customerType=BUSINESS leaves an individual out');
      t.is.equal(await count({ currency: 'GBP', platformCustomerId: person.platformCustomerId }), 1, 'currency=GBP keeps a customer holding GBP');
      t.is.equal(await count({ currency: 'EUR', platformCustomerId: person.platformCustomerId }), 0, 'currency=EUR leaves out a customer without EUR');
      t.is.equal(await count({ kybStatus: 'PENDING', platformCustomerId: company.platformCustomerId }), 0, 'kybStatus=PENDING leaves out a business not verified yet');
      t.is.equal(await count({ customerType: 'BUSINESS', platformCustomerId: company.platformCustomerId }), 1, 'customerType=BUSINESS keeps a business');
      t.is.equal(await count({ kycStatus: 'UNVERIFIED', platformCustomerId: company.platformCustomerId }), 0, 'kycStatus leaves businesses out');
    }),

    check('customers.update.fields', { operations: ['updateCustomer', 'getCustomer'], status: 200, rule: 'PATCH changes only the fields it sends; the identifier is never shown (updateCustomer)' }, async (t) => {
      const created = await individual(t, { email: 'old@example.com', birthDate: '1990-04-21', idType: 'SSN', identifier: '123-45-6789' });
      const updated = t.expect(await patch(t, created.id, { customerType: 'INDIVIDUAL', phoneNumber: '+14155550199', idType: 'PASSPORT', identifier: 'X1234567' }), 200, 'updateCustomer answers 200');
      t.is.contains(updated, { phoneNumber: '+14155550199', email: 'old@example.com', birthDate: '1990-04-21', fullName: 'Jane Doe', idType: 'PASSPORT', kycStatus: 'UNVERIFIED' }, 'fields not sent keep their values');
      t.is.ok(!('identifier' in updated), 'identity numbers are never shown', 'no identifier', () => 'an identifier');
      t.is.equal(t.expect(await get(t, created.id), 200, 'getCustomer answers 200'), updated, 'getCustomer answers the customer as updated');
    }),

    check('customers.update.currencies', { operations: ['updateCustomer'], status: 200, rule: 'currencies added by PATCH get internal accounts; currencies cannot be removed (400) (updateCustomer)' }, async (t) => {
      const created = await individual(t, { currencies: ['USD'] });
      const updated = t.expect<Customer>(await patch(t, created.id, { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR', 'MXN'] }), 200, 'updateCustomer answers 200');
      t.is.equal(updated.currencies, ['USD', 'EUR', 'MXN'], 'the customer holds the currencies sent');
      t.is.equal(await currencies(t, created.id), ['EUR', 'MXN', 'USD'], 'an added currency gets its internal account');
      t.expectError(await patch(t, created.id, { customerType: 'INDIVIDUAL', currencies: ['EUR', 'GBP'] }), 400, 'INVALID_INPUT', 'currencies keep every current currency');
      t.is.equal(await currencies(t, created.id), ['EUR', 'MXN', 'USD'], 'a refused update changes no account');
    }),

    check('customers.update.400-type', { operations: ['updateCustomer'], status: 400, rule: 'customerType in a PATCH must be the customer\'s own type: 400 INVALID_INPUT (updateCustomer)' }, async (t) => {
      const created = await individual(t);
      t.expectError(await patch(t, created.id, { customerType: 'BUSINESS', email: 'x@example.com' }), 400, 'INVALID_INPUT', 'a customer keeps its type');
    }),

    check('customers.update.409-uma-address', { operations: ['updateCustomer'], status: 409, rule: 'an umaAddress taken by another customer is 409 UMA_ADDRESS_EXISTS and nothing changes (errors guide)' }, async (t) => {
      const taken = await individual(t);
      const created = await individual(t);
      t.expectError(await patch(t, created.id, { customerType: 'INDIVIDUAL', umaAddress: taken.umaAddress }), 409, 'UMA_ADDRESS_EXISTS', 'an UMA address is one customer\'s');
      t.is.equal(t.expect<Customer>(await get(t, created.id), 200, 'getCustomer answers 200').umaAddress, created.umaAddress, 'a refused update changes nothing');
    }),

    check('customers.delete', { operations: ['deleteCustomer', 'getCustomer', 'listCustomers'], status: 200, rule: 'DELETE soft-deletes: isDeleted true, still readable, left out of lists unless isIncludingDeleted (deleteCustomer, listCustomers)' }, async (t) => {
      const created = await individual(t);
      const deleted = t.expect<Customer>(await remove(t, created.id), 200, 'deleteCustomer answers 200 with the customer');
      t.is.equal(deleted.isDeleted, true, 'the answer shows the customer deleted');
      t.is.contains(t.expect(await get(t, created.id), 200, 'a deleted customer stays readable'), { id: created.id, isDeleted: true }, 'a deleted customer reads as deleted');
      const query = { platformCustomerId: created.platformCustomerId };
      t.is.equal(page<Customer>(t, await t.call('GET', '/customers', { query }), 'listCustomers answers 200').totalCount, 0, 'lists leave deleted customers out');
      const all = page<Customer>(t, await t.call('GET', '/customers', { query: { ...query, isIncludingDeleted: true } }), 'listCustomers answers 200');
      t.is.equal(ids(all.data), [created.id], 'isIncludingDeleted=true lists them');
    }),

    check('customers.delete.410', { operations: ['deleteCustomer', 'updateCustomer'], status: 410, rule: 'a deleted customer cannot be changed or deleted again: 410 CUSTOMER_DELETED (errors guide)' }, async (t) => {
      const created = await individual(t);
      t.expect(await remove(t, created.id), 200, 'deleteCustomer answers 200');
      t.expectError(await remove(t, created.id), 410, 'CUSTOMER_DELETED', 'deleting a deleted customer is 410');
      t.expectError(await patch(t, created.id, { customerType: 'INDIVIDUAL', email: 'x@example.com' }), 410, 'CUSTOMER_DELETED', 'changing a deleted customer is 410');
    }),
  ];
}
