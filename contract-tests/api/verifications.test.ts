// Verifications: createVerification (KYB/KYC with the sandbox rules), listVerifications,
// getVerification. The sandbox KYB and KYC by suffix, RESOLVE_ERRORS and a new verification after
// a decision, 410, 403s and 404s are the conformance kit's verifications.*, auth.* and errors.*
// checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import { api, expectInvalidRequest, isMock, itServer, raw } from '../support/api.ts';
import { examples, newCustomerId } from '../support/factories.ts';
import { jsonBody } from '../support/raw-requests.ts';

const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';
const missingVerification = '019542f5-b3e7-1d02-0000-0000000000ff';

/** A business (the spec's example on the mock); the sandbox decides KYB on the last 3 digits of registrationNumber. */
const newBusiness = (registrationNumber?: string) => newCustomerId('BUSINESS', { businessInfo: { registrationNumber } });

const verify = (customerId: string) => api.POST('/verifications', { body: { customerId } });

async function customerStatus(customerId: string): Promise<string | undefined> {
  const { data } = await api.GET('/customers/{customerId}', { params: { path: { customerId } } });
  if (data === undefined) return undefined;
  return data.customerType === 'BUSINESS' ? data.kybStatus : data.kycStatus;
}

describe('createVerification', () => {
  it('200: verifies a business', async () => {
    const customerId = await newBusiness('C4829123');
    const { data, response } = await verify(customerId);
    expect(response.status).toBe(200);
    expect(data?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/); // opaque, not a typed identifier
    if (isMock) return;
    expect(data).toMatchObject({ customerId, verificationStatus: 'APPROVED', errors: [] });
    expect(await customerStatus(customerId)).toBe('APPROVED');
  });

  itServer('200: an individual without fullName needs it', async () => {
    const customerId = await newCustomerId('INDIVIDUAL');
    const { data } = await verify(customerId);
    expect(data).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors: [{ type: 'MISSING_FIELD', field: 'fullName', resourceId: customerId }] });
    expect(await customerStatus(customerId)).toBe('UNVERIFIED');
  });

  itServer('200: a verification in manual review is returned unchanged', async () => {
    const customerId = await newBusiness('C4829001');
    const { data: first } = await verify(customerId);
    expect(first?.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    await api.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829123' } } });
    const { data: again } = await verify(customerId);
    expect(again).toEqual(first);
    expect(await customerStatus(customerId)).toBe('PENDING');
  });

  it('400: rejects an invalid body', async () => {
    const res = await raw('POST', '/verifications', jsonBody({ customerId: 'Customer:nope', extra: true }));
    await expectInvalidRequest(res);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/verifications', { auth: false, ...jsonBody({ customerId: examples.businessCustomerId }) });
    expect(res.status).toBe(401);
  });

  itServer('404: unknown customer', async () => {
    const { response, error } = await verify(missingCustomer);
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });
});

describe('listVerifications', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/verifications');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer('200: filters by customer and status, pages newest first', async () => {
    const a = await newBusiness();
    const b = await newBusiness('C4829001');
    const { data: va } = await verify(a);
    const { data: vb } = await verify(b);
    const byCustomer = await api.GET('/verifications', { params: { query: { customerId: a } } });
    expect(byCustomer.data).toMatchObject({ totalCount: 1, data: [{ id: va?.id }] });
    const byStatus = await api.GET('/verifications', { params: { query: { customerId: b, verificationStatus: 'PENDING_MANUAL_REVIEW' } } });
    expect(byStatus.data).toMatchObject({ totalCount: 1, data: [{ id: vb?.id }] });
    const none = await api.GET('/verifications', { params: { query: { customerId: b, verificationStatus: 'APPROVED' } } });
    expect(none.data?.totalCount).toBe(0);
    const page = await api.GET('/verifications', { params: { query: { limit: 1 } } });
    expect(page.data?.hasMore).toBe(true);
    const next = await api.GET('/verifications', { params: { query: { limit: 1, cursor: page.data?.nextCursor ?? '' } } });
    expect(next.response.status).toBe(200);
    expect(next.data?.data[0]?.id).not.toBe(page.data?.data[0]?.id);
  });

  it('400: rejects an invalid filter', async () => {
    expect((await raw('GET', '/verifications?verificationStatus=DONE')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/verifications', { auth: false })).status).toBe(401);
  });
});

describe('getVerification', () => {
  it('200: returns the verification', async () => {
    const { data: created } = await verify(await newBusiness('C4829123'));
    const { data, response } = await api.GET('/verifications/{verificationId}', { params: { path: { verificationId: created?.id ?? '' } } });
    expect(response.status).toBe(200);
    if (isMock) return;
    expect(data).toEqual(created);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/verifications/${missingVerification}`, { auth: false })).status).toBe(401);
  });
});
