// Beneficial owners: createBeneficialOwner (with the sandbox KYC rule), listBeneficialOwners,
// getBeneficialOwner, updateBeneficialOwner. The sandbox KYC on create, the 400s and 410s, pages, 403s and
// 404s are the conformance kit's beneficial-owners.*, pagination.*, auth.* and errors.* checks
// (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, expectInvalidRequest, isMock, itServer, raw } from '../support/api.ts';
import { createBeneficialOwner, examples, newCustomerId, ownerPersonalInfo } from '../support/factories.ts';
import { jsonBody } from '../support/raw-requests.ts';

const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';
const missingOwner = 'BeneficialOwner:019542f5-b3e7-1d02-0000-0000000000ff';

const getOwner = (beneficialOwnerId: string) => api.GET('/beneficial-owners/{beneficialOwnerId}', { params: { path: { beneficialOwnerId } } });

describe('createBeneficialOwner', () => {
  it('201: adds the owner, checked at once, showing the identifier masked (**** and its last four characters)', async () => {
    const customerId = await newCustomerId('BUSINESS');
    const owner = await createBeneficialOwner(customerId, { personalInfo: { ...ownerPersonalInfo(), middleName: 'Robert', email: 'john@example.com' } });
    expect(owner.personalInfo.identifier).toMatch(/^\*{4}.{0,4}$/);
    if (isMock) return;
    expect(owner.personalInfo.identifier).toBe('****4321'); // 987-65-4321
    expect(owner).toMatchObject({ customerId, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 40, kycStatus: 'APPROVED', personalInfo: { lastName: 'Smith', middleName: 'Robert' } });
    const { data } = await getOwner(owner.id);
    expect(data).toEqual(owner);
  });

  itServer('201: ownershipPercentage is optional for roles other than UBO', async () => {
    const owner = await createBeneficialOwner(await newCustomerId('BUSINESS'), { roles: ['DIRECTOR'], ownershipPercentage: undefined });
    expect(owner).not.toHaveProperty('ownershipPercentage');
  });

  it('400: rejects an invalid body', async () => {
    const res = await raw('POST', '/beneficial-owners', jsonBody({ customerId: examples.businessCustomerId, roles: [], ownershipPercentage: 120, personalInfo: {} }));
    await expectInvalidRequest(res);
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/beneficial-owners', { auth: false, ...jsonBody({ customerId: examples.businessCustomerId, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo() }) });
    expect(res.status).toBe(401);
  });

  itServer('404: unknown customer', async () => {
    const { response, error } = await api.POST('/beneficial-owners', { body: { customerId: missingCustomer, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo() } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });
});

describe('listBeneficialOwners', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/beneficial-owners');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  itServer("200: one customer's owners, newest first, paged, showing identifiers only masked", async () => {
    const customerId = await newCustomerId('BUSINESS');
    const created = [await createBeneficialOwner(customerId), await createBeneficialOwner(customerId), await createBeneficialOwner(customerId)];
    await createBeneficialOwner(await newCustomerId('BUSINESS'));
    const first = await api.GET('/beneficial-owners', { params: { query: { customerId, limit: 2 } } });
    expect(first.data).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.data?.data.map((o) => o.id)).toEqual([created[2]?.id, created[1]?.id]);
    const second = await api.GET('/beneficial-owners', { params: { query: { customerId, limit: 2, cursor: first.data?.nextCursor ?? '' } } });
    expect(second.data).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.data?.data.map((o) => o.id)).toEqual([created[0]?.id]);
    for (const o of [...(first.data?.data ?? []), ...(second.data?.data ?? [])]) expect(o.personalInfo.identifier).toBe('****4321');
  });

  it('400: rejects an invalid filter', async () => {
    expect((await raw('GET', '/beneficial-owners?customerId=nope')).status).toBe(400);
    expect((await raw('GET', '/beneficial-owners?limit=101')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/beneficial-owners', { auth: false })).status).toBe(401);
  });
});

describe('getBeneficialOwner', () => {
  it('200: returns the owner', async () => {
    const owner = await createBeneficialOwner(await newCustomerId('BUSINESS'));
    const { data, response } = await getOwner(owner.id);
    expect(response.status).toBe(200);
    expect(data?.id).toMatch(/^BeneficialOwner:/);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/beneficial-owners/${missingOwner}`, { auth: false })).status).toBe(401);
  });
});

describe('updateBeneficialOwner', () => {
  const patch = (beneficialOwnerId: string, body: components['schemas']['BeneficialOwnerUpdateRequest']) =>
    api.PATCH('/beneficial-owners/{beneficialOwnerId}', { params: { path: { beneficialOwnerId } }, body });

  it('200: changes only the fields sent', async () => {
    const owner = await createBeneficialOwner(await newCustomerId('BUSINESS'), { personalInfo: { ...ownerPersonalInfo(), phoneNumber: '+14155550177' } });
    const { data, response } = await patch(owner.id, { ownershipPercentage: 55, personalInfo: { email: 'j.smith@example.com', idType: 'PASSPORT', identifier: 'P123' } });
    expect(response.status).toBe(200);
    expect(data?.personalInfo.identifier).toMatch(/^\*{4}.{0,4}$/);
    if (isMock) return;
    // A new identifier of four characters or fewer shows none of them.
    expect(data).toMatchObject({ ownershipPercentage: 55, roles: ['UBO', 'DIRECTOR'], kycStatus: 'APPROVED', personalInfo: { email: 'j.smith@example.com', phoneNumber: '+14155550177', lastName: 'Smith', idType: 'PASSPORT', identifier: '****' } });
    expect((await getOwner(owner.id)).data).toEqual(data);
    const longer = await patch(owner.id, { personalInfo: { idType: 'PASSPORT', identifier: 'GB-PASS-998877' } });
    expect(longer.data?.personalInfo.identifier).toBe('****8877');
  });

  itServer('200: a new lastName runs the check again (sandbox rule); other changes keep kycStatus', async () => {
    const owner = await createBeneficialOwner(await newCustomerId('BUSINESS'));
    expect((await patch(owner.id, { personalInfo: { lastName: 'Smith002' } })).data?.kycStatus).toBe('REJECTED');
    expect((await patch(owner.id, { roles: ['DIRECTOR'] })).data?.kycStatus).toBe('REJECTED');
    expect((await patch(owner.id, { personalInfo: { lastName: 'Smith001' } })).data?.kycStatus).toBe('PENDING');
    expect((await patch(owner.id, { personalInfo: { lastName: 'Smith' } })).data?.kycStatus).toBe('APPROVED');
    expect((await getOwner(owner.id)).data).toMatchObject({ kycStatus: 'APPROVED', roles: ['DIRECTOR'], personalInfo: { lastName: 'Smith' } });
  });

  itServer('400: roles including UBO need an ownershipPercentage', async () => {
    const owner = await createBeneficialOwner(await newCustomerId('BUSINESS'), { roles: ['DIRECTOR'], ownershipPercentage: undefined });
    const { response, error } = await patch(owner.id, { roles: ['UBO'] });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await getOwner(owner.id)).data?.roles).toEqual(['DIRECTOR']);
    expect((await patch(owner.id, { roles: ['UBO'], ownershipPercentage: 25 })).response.status).toBe(200);
  });

  it('400: rejects an invalid body', async () => {
    const res = await raw('PATCH', `/beneficial-owners/${missingOwner}`, jsonBody({ personalInfo: { idType: 'SSN' } }));
    expect(res.status).toBe(400);
  });

  it('401: requires credentials', async () => {
    const res = await raw('PATCH', `/beneficial-owners/${missingOwner}`, { auth: false, ...jsonBody({ ownershipPercentage: 5 }) });
    expect(res.status).toBe(401);
  });
});

describe("a beneficial owner's identifier, masked by characters", () => {
  /** An owner created, then its identifier changed, with these identifiers: each answer as masked (the client checks each against the contract). */
  async function maskedAnswers(identifier: string, changedTo: string): Promise<string[]> {
    const customerId = await newCustomerId('BUSINESS');
    const created = await api.POST('/beneficial-owners', { body: { customerId, roles: ['DIRECTOR'], personalInfo: { ...ownerPersonalInfo(), identifier } } });
    expect(created.response.status).toBe(201);
    const id = created.data?.id ?? '';
    const updated = await api.PATCH('/beneficial-owners/{beneficialOwnerId}', { params: { path: { beneficialOwnerId: id } }, body: { personalInfo: { idType: 'PASSPORT', identifier: changedTo } } });
    expect(updated.response.status).toBe(200);
    const listed = await api.GET('/beneficial-owners', { params: { query: { customerId } } });
    const answers = [created.data?.personalInfo.identifier, updated.data?.personalInfo.identifier, (await getOwner(id)).data?.personalInfo.identifier, listed.data?.data[0]?.personalInfo.identifier];
    return answers.map((a) => a ?? 'missing');
  }

  itServer('a control character or line terminator among the last four shows none of them (the answer refuses line terminators); one before them is not shown', async () => {
    const cases: [string, string][] = [
      ['123456789\n', '****'],
      ['123-45-67\r\n', '****'],
      ['12345\u2028', '****'],
      ['1234\u20295', '****'],
      ['987\u001B654', '****'],
      ['9876\u007F', '****'],
      ['98765\u0085', '****'],
      ['98765\t4321', '****4321'],
      ['\n987654321', '****4321'],
    ];
    for (const [identifier, masked] of cases) expect(await maskedAnswers(identifier, identifier)).toEqual([masked, masked, masked, masked]);
  });

  itServer('characters outside the BMP count as one each and are never cut in half', async () => {
    const cases: [string, string][] = [
      ['AB😀123', '****😀123'],
      ['𝟘𝟙𝟚𝟛𝟜', '****𝟙𝟚𝟛𝟜'],
      ['😀123', '****'], // four characters (five UTF-16 units): none shown
      ['1234😀', '****234😀'],
    ];
    for (const [identifier, masked] of cases) {
      const answers = await maskedAnswers(identifier, `X${identifier}`);
      expect(answers).toEqual([masked, identifier === '😀123' ? '****😀123' : masked, ...Array<string>(2).fill(identifier === '😀123' ? '****😀123' : masked)]);
      for (const answer of answers) expect(answer.isWellFormed()).toBe(true);
    }
  });
});
