// Verifications: createVerification (KYB/KYC with the sandbox rules), listVerifications,
// getVerification.
import { describe, expect, it } from 'vitest';
import { api, expectInvalidRequest, isMock, itServer, raw } from '../support/api.ts';
import { deleteCustomer, examples, newCustomerId, tokenWith } from '../support/factories.ts';
import { codeOf, jsonBody } from '../support/raw-requests.ts';

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

  itServer('200: sandbox KYB on the last 3 digits of registrationNumber', async () => {
    const cases = [
      ['C4829001', 'PENDING_MANUAL_REVIEW', 'PENDING'],
      ['C4829002', 'REJECTED', 'REJECTED'],
      ['C4829003', 'APPROVED', 'APPROVED'],
    ] as const;
    for (const [registrationNumber, verificationStatus, kybStatus] of cases) {
      const customerId = await newBusiness(registrationNumber);
      expect(await customerStatus(customerId)).toBeUndefined();
      const { data } = await verify(customerId);
      expect(data, registrationNumber).toMatchObject({ verificationStatus, errors: [] });
      expect(await customerStatus(customerId), registrationNumber).toBe(kybStatus);
    }
  });

  itServer('200: sandbox KYC of an individual on the last 3 characters of fullName', async () => {
    const cases = [
      ['Jane Doe001', 'PENDING_MANUAL_REVIEW', 'PENDING'],
      ['Jane Doe002', 'REJECTED', 'REJECTED'],
      ['Jane Doe', 'APPROVED', 'APPROVED'],
    ] as const;
    for (const [fullName, verificationStatus, kycStatus] of cases) {
      const customerId = await newCustomerId('INDIVIDUAL', { fullName });
      const { data } = await verify(customerId);
      expect(data, fullName).toMatchObject({ verificationStatus, customerId });
      expect(await customerStatus(customerId), fullName).toBe(kycStatus);
    }
  });

  itServer('200: missing data gives RESOLVE_ERRORS, status unchanged; after the fix the same verification is decided', async () => {
    const customerId = await newBusiness();
    const { data: first } = await verify(customerId);
    expect(first).toMatchObject({
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [{ resourceId: customerId, type: 'MISSING_FIELD', field: 'businessInfo.registrationNumber' }],
    });
    expect(await customerStatus(customerId)).toBeUndefined();
    const { data: again } = await verify(customerId);
    expect(again).toMatchObject({ id: first?.id, verificationStatus: 'RESOLVE_ERRORS' });

    await api.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829002' } } });
    const { data: fixed } = await verify(customerId);
    expect(fixed).toMatchObject({ id: first?.id, verificationStatus: 'REJECTED', errors: [], createdAt: first?.createdAt });
    expect(await customerStatus(customerId)).toBe('REJECTED');
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

  itServer('200: after a decision, a new verification checks the current data', async () => {
    const customerId = await newBusiness('C4829123');
    const { data: first } = await verify(customerId);
    expect(first?.verificationStatus).toBe('APPROVED');
    await api.PATCH('/customers/{customerId}', { params: { path: { customerId } }, body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829002' } } });
    expect(await customerStatus(customerId)).toBe('APPROVED');
    const { data: second } = await verify(customerId);
    expect(second?.id).not.toBe(first?.id);
    expect(second?.verificationStatus).toBe('REJECTED');
    expect(await customerStatus(customerId)).toBe('REJECTED');
    const { data: list } = await api.GET('/verifications', { params: { query: { customerId } } });
    expect(list?.data.map((v) => v.id)).toEqual([second?.id, first?.id]);
  });

  it('400: rejects an invalid body', async () => {
    const res = await raw('POST', '/verifications', jsonBody({ customerId: 'Customer:nope', extra: true }));
    await expectInvalidRequest(res);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/verifications', { auth: false, ...jsonBody({ customerId: examples.businessCustomerId }) });
    expect(res.status).toBe(401);
  });

  itServer('403: needs MANAGE', async () => {
    const customerId = await newBusiness('C4829123');
    const viewer = await tokenWith(['VIEW', 'TRANSACT']);
    const { response, error } = await viewer.POST('/verifications', { body: { customerId } });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    expect(await customerStatus(customerId)).toBeUndefined();
  });

  itServer('404: unknown customer', async () => {
    const { response, error } = await verify(missingCustomer);
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });

  itServer('410: deleted customer', async () => {
    const customerId = await newBusiness('C4829123');
    await deleteCustomer(customerId);
    const { response, error } = await verify(customerId);
    expect(response.status).toBe(410);
    expect(error).toMatchObject({ code: 'CUSTOMER_DELETED' });
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

  itServer('403: needs VIEW', async () => {
    const manager = await tokenWith(['MANAGE']);
    expect((await manager.GET('/verifications')).response.status).toBe(403);
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

  itServer('404: unknown verification', async () => {
    const { response, error } = await api.GET('/verifications/{verificationId}', { params: { path: { verificationId: missingVerification } } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'VERIFICATION_NOT_FOUND' });
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/verifications/${missingVerification}`, { auth: false })).status).toBe(401);
  });

  itServer('403: needs VIEW', async () => {
    const { data: created } = await verify(await newBusiness('C4829123'));
    const manager = await tokenWith(['MANAGE']);
    expect((await manager.GET('/verifications/{verificationId}', { params: { path: { verificationId: created?.id ?? '' } } })).response.status).toBe(403);
  });
});
