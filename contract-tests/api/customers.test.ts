// Customers: createCustomer, listCustomers, getCustomer, updateCustomer, deleteCustomer: what the
// Prism mock answers too, and the server's rules the conformance kit does not check. The rest
// (each success read back, 403, 404, 409, 410, filters, pages) is the kit's customers.*,
// auth.*, errors.* and pagination.listCustomers.* checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, expectInvalidRequest, isMock, itServer, raw, unique } from '../support/api.ts';
import { createBusinessCustomer, createIndividualCustomer, deleteCustomer } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';

const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';

const getCustomer = (customerId: string) => api.GET('/customers/{customerId}', { params: { path: { customerId } } });

describe('createCustomer', () => {
  it('201: creates an individual customer, UNVERIFIED, without returning the identifier', async () => {
    const customer = await createIndividualCustomer({
      fullName: 'Jane Doe',
      region: 'US',
      currencies: ['USD', 'EUR'],
      email: 'jane.doe@example.com',
      phoneNumber: '+14155550123',
      birthDate: '1990-04-21',
      nationality: 'US',
      address: { line1: '350 Mission Street', postalCode: '94105', country: 'US' },
      idType: 'SSN',
      identifier: '123-45-6789',
      countryOfIssuance: 'US',
    });
    expect(customer).not.toHaveProperty('identifier');
    if (isMock) return;
    expect(customer).toMatchObject({ customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED', isDeleted: false, currencies: ['USD', 'EUR'], fullName: 'Jane Doe', idType: 'SSN', region: 'US' });
    const { data } = await getCustomer(customer.id);
    expect(data).toEqual(customer);
    expect(data).not.toHaveProperty('identifier');
  });

  itServer('201: creates a business customer, without a kybStatus until its first verification', async () => {
    const customer = await createBusinessCustomer({ businessInfo: { registrationNumber: 'C4829123' }, address: { line1: '500 Howard Street', postalCode: '94105', country: 'US' } });
    expect(customer).toMatchObject({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Corporation', registrationNumber: 'C4829123' } });
    expect(customer).not.toHaveProperty('kybStatus');
    expect(customer).not.toHaveProperty('kycStatus');
    const { data } = await getCustomer(customer.id);
    expect(data).toEqual(customer);
  });

  itServer('201: generates platformCustomerId, umaAddress and currencies [USD] when omitted', async () => {
    const { data, response } = await api.POST('/customers', { body: { customerType: 'INDIVIDUAL' } });
    expect(response.status).toBe(201);
    expect(data?.platformCustomerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data?.umaAddress).toMatch(/^\$[A-Za-z0-9._+-]+@sandbox\.uma\.money$/);
    expect(data?.currencies).toEqual(['USD']);
    const other = await createIndividualCustomer();
    expect(other.umaAddress).not.toBe(data?.umaAddress);
  });

  it('400: rejects an invalid body', async () => {
    const res = await raw('POST', '/customers', jsonBody({ customerType: 'INDIVIDUAL', email: 'not-an-email', kycStatus: 'APPROVED' }));
    await expectInvalidRequest(res);
  });

  it('400: a business needs businessInfo', async () => {
    const res = await raw('POST', '/customers', jsonBody({ customerType: 'BUSINESS' }));
    await expectInvalidRequest(res);
  });

  itServer('400: rejects a currency the service does not hold, and opens nothing', async () => {
    const platformCustomerId = `bad-cur-${unique()}`;
    const { response, error } = await api.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId, currencies: ['USD', 'XYZ'] } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: '/currencies/1' }] } });
    const { data } = await api.GET('/customers', { params: { query: { platformCustomerId } } });
    expect(data?.totalCount).toBe(0);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/customers', { auth: false, ...jsonBody({ customerType: 'INDIVIDUAL' }) });
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('UNAUTHORIZED');
  });

  itServer('409: a taken umaAddress, in any letter case', async () => {
    const first = await createIndividualCustomer();
    for (const umaAddress of [first.umaAddress, first.umaAddress.toUpperCase()]) {
      const { response, error } = await api.POST('/customers', { body: { customerType: 'BUSINESS', umaAddress, businessInfo: { legalName: 'Other', country: 'US' } } });
      expect(response.status, umaAddress).toBe(409);
      expect(error).toMatchObject({ code: 'UMA_ADDRESS_EXISTS' });
    }
  });
});

describe('listCustomers', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/customers');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: pages newest first with opaque cursors', async () => {
    // Only this test creates customers of region NZ.
    const region = 'NZ';
    const created = [await createIndividualCustomer({ region }), await createIndividualCustomer({ region }), await createIndividualCustomer({ region })];
    const createdAfter = created[0]?.createdAt ?? '';
    const first = await api.GET('/customers', { params: { query: { region, createdAfter, limit: 2 } } });
    expect(first.data).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.data?.data.map((c) => c.id)).toEqual([created[2]?.id, created[1]?.id]);
    const second = await api.GET('/customers', { params: { query: { region, createdAfter, limit: 2, cursor: first.data?.nextCursor ?? '' } } });
    expect(second.data).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.data?.data.map((c) => c.id)).toEqual([created[0]?.id]);
    const { response, error } = await api.GET('/customers', { params: { query: { region: 'NO', createdAfter, limit: 2, cursor: first.data?.nextCursor ?? '' } } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_CURSOR' });
  });

  itServer('200: filters by type, currency, umaAddress, verification status', async () => {
    const ind = await createIndividualCustomer({ currencies: ['USD', 'GBP'] });
    const biz = await createBusinessCustomer({ businessInfo: { registrationNumber: 'C4829123' } });
    const byUma = await api.GET('/customers', { params: { query: { umaAddress: ind.umaAddress } } });
    expect(byUma.data?.data.map((c) => c.id)).toEqual([ind.id]);
    const byType = await api.GET('/customers', { params: { query: { customerType: 'BUSINESS', platformCustomerId: ind.platformCustomerId } } });
    expect(byType.data?.totalCount).toBe(0);
    const byCurrency = await api.GET('/customers', { params: { query: { currency: 'GBP', platformCustomerId: ind.platformCustomerId } } });
    expect(byCurrency.data?.totalCount).toBe(1);
    const notCurrency = await api.GET('/customers', { params: { query: { currency: 'EUR', platformCustomerId: ind.platformCustomerId } } });
    expect(notCurrency.data?.totalCount).toBe(0);
    // KYB has no UNVERIFIED (issue 37): a business not verified yet has no kybStatus.
    expect((await raw('GET', `/customers?kybStatus=UNVERIFIED`)).status).toBe(400);
    expect((await api.GET('/customers', { params: { query: { kybStatus: 'APPROVED', platformCustomerId: biz.platformCustomerId } } })).data?.totalCount).toBe(0);
    await api.POST('/verifications', { body: { customerId: biz.id } });
    const byKyb = await api.GET('/customers', { params: { query: { kybStatus: 'APPROVED', platformCustomerId: biz.platformCustomerId } } });
    expect(byKyb.data?.totalCount).toBe(1);
    const byKyc = await api.GET('/customers', { params: { query: { kycStatus: 'UNVERIFIED', platformCustomerId: biz.platformCustomerId } } });
    expect(byKyc.data?.totalCount).toBe(0);
  });

  itServer('200: leaves deleted customers out unless isIncludingDeleted', async () => {
    const customer = await createIndividualCustomer();
    await deleteCustomer(customer.id);
    const platformCustomerId = customer.platformCustomerId;
    const without = await api.GET('/customers', { params: { query: { platformCustomerId } } });
    expect(without.data?.totalCount).toBe(0);
    const withDeleted = await api.GET('/customers', { params: { query: { platformCustomerId, isIncludingDeleted: true } } });
    expect(withDeleted.data?.data).toMatchObject([{ id: customer.id, isDeleted: true }]);
  });

  it('400: rejects an invalid filter', async () => {
    expect((await raw('GET', '/customers?limit=0')).status).toBe(400);
    expect((await raw('GET', '/customers?customerType=ROBOT')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/customers', { auth: false })).status).toBe(401);
  });
});

describe('getCustomer', () => {
  it('200: returns the customer', async () => {
    const customer = await createIndividualCustomer();
    const { data, response } = await getCustomer(customer.id);
    expect(response.status).toBe(200);
    expect(data?.id).toMatch(/^Customer:/);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/customers/${missingCustomer}`, { auth: false })).status).toBe(401);
  });
});

describe('updateCustomer', () => {
  const patch = (customerId: string, body: components['schemas']['CustomerUpdateRequest']) =>
    api.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body });

  it('200: changes only the fields sent', async () => {
    const customer = await createIndividualCustomer({ fullName: 'Jane Doe', email: 'old@example.com', birthDate: '1990-04-21', identifier: '123-45-6789', idType: 'SSN' });
    const { data, response } = await patch(customer.id, { customerType: 'INDIVIDUAL', phoneNumber: '+14155550199', idType: 'PASSPORT', identifier: 'X1234567' });
    expect(response.status).toBe(200);
    expect(data).not.toHaveProperty('identifier');
    if (isMock) return;
    expect(data).toMatchObject({ phoneNumber: '+14155550199', email: 'old@example.com', birthDate: '1990-04-21', fullName: 'Jane Doe', idType: 'PASSPORT', kycStatus: 'UNVERIFIED' });
    const { data: again } = await getCustomer(customer.id);
    expect(again).toEqual(data);
  });

  itServer('200: merges businessInfo field by field and replaces address', async () => {
    const customer = await createBusinessCustomer({ businessInfo: { registrationNumber: 'C4829123' }, address: { line1: 'Old street 1', line2: 'Floor 2', postalCode: '1000', country: 'US' } });
    const { data } = await patch(customer.id, { customerType: 'BUSINESS', businessInfo: { taxId: '12-3456789' }, address: { line1: 'New street 9', postalCode: '2000', country: 'US' } });
    expect(data).toMatchObject({ businessInfo: { legalName: 'Acme Corporation', registrationNumber: 'C4829123', taxId: '12-3456789' } });
    expect(data).not.toHaveProperty('kybStatus');
    if (data?.customerType !== 'BUSINESS') throw new Error('not a business');
    expect(data.address).toEqual({ line1: 'New street 9', postalCode: '2000', country: 'US' });
  });

  it('400: region and platformCustomerId cannot be changed', async () => {
    const res = await raw('PATCH', `/customers/${missingCustomer}`, jsonBody({ customerType: 'INDIVIDUAL', region: 'FR' }));
    expect(res.status).toBe(400);
  });

  it('401: requires credentials', async () => {
    const res = await raw('PATCH', `/customers/${missingCustomer}`, { auth: false, ...jsonBody({ customerType: 'INDIVIDUAL' }) });
    expect(res.status).toBe(401);
  });
});

describe('deleteCustomer', () => {
  const remove = (customerId: string) => api.DELETE('/customers/{customerId}', { params: { path: { customerId } } });

  it('200: soft-deletes the customer, which stays readable', async () => {
    const customer = await createIndividualCustomer();
    const { data, response } = await remove(customer.id);
    expect(response.status).toBe(200);
    expect(data?.isDeleted).toBe(true);
    if (isMock) return;
    const { data: again } = await getCustomer(customer.id);
    expect(again).toMatchObject({ id: customer.id, isDeleted: true });
  });

  it('401: requires credentials', async () => {
    expect((await raw('DELETE', `/customers/${missingCustomer}`, { auth: false })).status).toBe(401);
  });
});
