// Documents: uploadDocument and replaceDocument (multipart/form-data, file rules), listDocuments,
// getDocument, deleteDocument (refused once a verification used the document). The file types,
// 413, 410s, pages, 403s and 404s are the conformance kit's documents.*, input.*, pagination.*,
// auth.* and errors.* checks (conformance-kit.test.ts).
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, expectInvalidRequest, isMock, itServer, raw } from '../support/api.ts';
import { createBeneficialOwner, createIndividualCustomer, deleteCustomer, examples, newCustomerId } from '../support/factories.ts';

type UploadFields = Omit<components['schemas']['DocumentUploadRequest'], 'file'>;
type ReplaceFields = Omit<components['schemas']['DocumentReplaceRequest'], 'file'>;
interface FileSpec {
  content: Uint8Array;
  type: string;
  name: string;
}

const missingCustomer = 'Customer:019542f5-b3e7-1d02-0000-0000000000ff';
const missingOwner = 'BeneficialOwner:019542f5-b3e7-1d02-0000-0000000000ff';
const missingDocument = '019542f5-b3e7-1d02-0000-0000000000ff';
const MAX = 10 * 1024 * 1024;

const bytes = (head: number[] | string, size: number): Uint8Array => {
  const out = new Uint8Array(size).fill(0x20);
  out.set(typeof head === 'string' ? new TextEncoder().encode(head) : head);
  return out;
};
const pdf = (size = 1234, name = 'passport.pdf'): FileSpec => ({ content: bytes('%PDF-1.7\n', size), type: 'application/pdf', name });
const png = (): FileSpec => ({ content: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 300), type: 'image/png', name: 'selfie.png' });
const jpeg = (): FileSpec => ({ content: bytes([0xff, 0xd8, 0xff, 0xe0], 400), type: 'image/jpeg', name: 'licence-front.jpg' });

function formData(fields: Record<string, string | undefined>, file: FileSpec | undefined): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  if (file !== undefined) form.append('file', new Blob([file.content], { type: file.type }), file.name);
  return form;
}

const upload = (fields: UploadFields, file: FileSpec | undefined = pdf(), via = api) =>
  via.POST('/documents', { body: { ...fields, file: '' }, bodySerializer: () => formData({ ...fields }, file) });

const replace = (documentId: string, fields: ReplaceFields, file: FileSpec | undefined = pdf(), via = api) =>
  via.PUT('/documents/{documentId}', { params: { path: { documentId } }, body: { ...fields, file: '' }, bodySerializer: () => formData({ ...fields }, file) });

const getDocument = (documentId: string) => api.GET('/documents/{documentId}', { params: { path: { documentId } } });
const deleteDocument = (documentId: string, via = api) => via.DELETE('/documents/{documentId}', { params: { path: { documentId } } });

async function newDocument(documentHolder: string, fields: Partial<UploadFields> = {}) {
  const { data, response, error } = await upload({ documentHolder, documentType: 'PASSPORT', country: 'US', ...fields });
  expect(response.status, JSON.stringify(error)).toBe(201);
  if (data === undefined) throw new Error('no document');
  return data;
}

describe('uploadDocument', () => {
  it('201: stores a PDF for a customer and describes it', async () => {
    const customerId = await newCustomerId();
    const { data, response } = await upload(
      { documentHolder: customerId, documentType: 'PASSPORT', country: 'US', documentNumber: '563891247', issuingAuthority: 'U.S. Department of State' },
      pdf(2048, 'jane-doe-passport.pdf'),
    );
    expect(response.status).toBe(201);
    expect(data?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/); // opaque, not a typed identifier
    if (isMock) return;
    expect(data).toMatchObject({ documentHolder: customerId, documentType: 'PASSPORT', country: 'US', documentNumber: '563891247', fileName: 'jane-doe-passport.pdf', contentType: 'application/pdf', sizeBytes: 2048 });
    expect((await getDocument(data?.id ?? '')).data).toEqual(data);
  });

  itServer('201: PNG and JPEG files, for a beneficial owner, with a side', async () => {
    const ownerId = (await createBeneficialOwner(await newCustomerId('BUSINESS'))).id;
    const front = await upload({ documentHolder: ownerId, documentType: 'DRIVERS_LICENSE', country: 'US', side: 'FRONT' }, jpeg());
    expect(front.data).toMatchObject({ documentHolder: ownerId, side: 'FRONT', contentType: 'image/jpeg', sizeBytes: 400, fileName: 'licence-front.jpg' });
    const selfie = await upload({ documentHolder: ownerId, documentType: 'SELFIE', country: 'US' }, { ...png(), name: 'Führerschein-Müller.png' });
    expect(selfie.data).toMatchObject({ contentType: 'image/png', sizeBytes: 300, fileName: 'Führerschein-Müller.png' });
    expect(selfie.data).not.toHaveProperty('side');
  });

  itServer('201: a file of exactly 10 MiB is accepted; the type comes from the content', async () => {
    const customerId = await newCustomerId();
    const { data, response } = await upload({ documentHolder: customerId, documentType: 'BANK_STATEMENT', country: 'US' }, { ...pdf(MAX), type: 'application/octet-stream' });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ sizeBytes: MAX, contentType: 'application/pdf' });
  });

  it('400: rejects invalid fields and a missing file', async () => {
    const res = await raw('POST', '/documents', { body: formData({ documentHolder: 'Account:1', documentType: 'PASSPORT', country: 'US' }, pdf()) });
    await expectInvalidRequest(res);
    const noFile = await raw('POST', '/documents', { body: formData({ documentHolder: examples.individualCustomerId, documentType: 'PASSPORT', country: 'US' }, undefined) });
    await expectInvalidRequest(noFile);
  });

  itServer('400: the file part must be a file, not text', async () => {
    const customerId = await newCustomerId();
    const form = formData({ documentHolder: customerId, documentType: 'PASSPORT', country: 'US', file: '%PDF-1.7 inline' }, undefined);
    const res = await raw('POST', '/documents', { body: form });
    expect(res.status).toBe(400);
    expect(await res.json() as object).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: '/file' }] } });
  });

  it('401: requires credentials', async () => {
    const res = await raw('POST', '/documents', { auth: false, body: formData({ documentHolder: examples.individualCustomerId, documentType: 'PASSPORT', country: 'US' }, pdf()) });
    expect(res.status).toBe(401);
  });

  itServer('404: unknown holder', async () => {
    const customer = await upload({ documentHolder: missingCustomer, documentType: 'PASSPORT', country: 'US' });
    expect(customer.response.status).toBe(404);
    expect(customer.error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
    const owner = await upload({ documentHolder: missingOwner, documentType: 'PASSPORT', country: 'US' });
    expect(owner.response.status).toBe(404);
    expect(owner.error).toMatchObject({ code: 'BENEFICIAL_OWNER_NOT_FOUND' });
  });

  itServer("410: a holder whose customer is deleted (the customer, or a beneficial owner's business)", async () => {
    const individual = await newCustomerId();
    await deleteCustomer(individual);
    const business = await newCustomerId('BUSINESS');
    const ownerId = (await createBeneficialOwner(business)).id;
    await deleteCustomer(business);
    for (const documentHolder of [individual, ownerId]) {
      const { response, error } = await upload({ documentHolder, documentType: 'PASSPORT', country: 'US' });
      expect(response.status).toBe(410);
      expect(error).toMatchObject({ code: 'CUSTOMER_DELETED' });
    }
  });
});

describe('listDocuments', () => {
  it('200: returns the list envelope', async () => {
    const { data, response } = await api.GET('/documents');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
  });

  it('400: rejects an invalid filter', async () => {
    expect((await raw('GET', '/documents?documentHolder=Token:abc')).status).toBe(400);
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', '/documents', { auth: false })).status).toBe(401);
  });
});

describe('getDocument', () => {
  it('200: returns the document', async () => {
    const document = await newDocument(await newCustomerId());
    const { data, response } = await getDocument(document.id);
    expect(response.status).toBe(200);
    expect(data?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/); // opaque, not a typed identifier
  });

  it('401: requires credentials', async () => {
    expect((await raw('GET', `/documents/${missingDocument}`, { auth: false })).status).toBe(401);
  });
});

describe('replaceDocument', () => {
  it('200: replaces the file and every field; unsent optional fields are cleared', async () => {
    const customerId = await newCustomerId();
    const document = await newDocument(customerId, { documentNumber: '563891247', issuingAuthority: 'U.S. Department of State', side: 'FRONT' });
    const { data, response } = await replace(document.id, { documentType: 'NATIONAL_ID', country: 'FR' }, png());
    expect(response.status).toBe(200);
    if (isMock) return;
    expect(data).toMatchObject({ id: document.id, documentHolder: customerId, documentType: 'NATIONAL_ID', country: 'FR', contentType: 'image/png', fileName: 'selfie.png', sizeBytes: 300, createdAt: document.createdAt });
    expect(data).not.toHaveProperty('documentNumber');
    expect(data).not.toHaveProperty('issuingAuthority');
    expect(data).not.toHaveProperty('side');
    expect((await getDocument(document.id)).data).toEqual(data);
  });

  itServer('400: same file rules as the upload, and the holder cannot change; the document is unchanged', async () => {
    const document = await newDocument(await newCustomerId());
    const wrongType = await replace(document.id, { documentType: 'PASSPORT', country: 'US' }, { content: new TextEncoder().encode('GIF89a'), type: 'image/gif', name: 'a.gif' });
    expect(wrongType.response.status).toBe(400);
    expect(wrongType.error).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
    expect((await getDocument(document.id)).data).toEqual(document);
    const other = await createIndividualCustomer();
    const moved = await raw('PUT', `/documents/${document.id}`, { body: formData({ documentType: 'PASSPORT', country: 'US', documentHolder: other.id }, pdf()) });
    expect(moved.status).toBe(400);
    expect((await getDocument(document.id)).data?.documentHolder).toBe(document.documentHolder);
  });

  it('400: rejects invalid fields', async () => {
    const res = await raw('PUT', `/documents/${missingDocument}`, { body: formData({ documentType: 'SCROLL', country: 'usa' }, pdf()) });
    expect(res.status).toBe(400);
  });

  it('401: requires credentials', async () => {
    const res = await raw('PUT', `/documents/${missingDocument}`, { auth: false, body: formData({ documentType: 'PASSPORT', country: 'US' }, pdf()) });
    expect(res.status).toBe(401);
  });
});

describe('deleteDocument', () => {
  it('204: deletes the document', async () => {
    const document = await newDocument(await newCustomerId());
    const { response } = await deleteDocument(document.id);
    expect(response.status).toBe(204);
    if (isMock) return;
    expect((await getDocument(document.id)).response.status).toBe(404);
  });

  itServer('409: DOCUMENT_SUBMITTED once a verification used it (also for beneficial owners); it can still be replaced', async () => {
    const business = await newCustomerId('BUSINESS', { businessInfo: { registrationNumber: 'C4829123' } });
    const ownerId = (await createBeneficialOwner(business)).id;
    const own = await newDocument(business, { documentType: 'CERTIFICATE_OF_INCORPORATION' });
    const owners = await newDocument(ownerId);
    const { response: verified } = await api.POST('/verifications', { body: { customerId: business } });
    expect(verified.status).toBe(200);
    const later = await newDocument(business, { documentType: 'PROOF_OF_ADDRESS' });
    for (const document of [own, owners]) {
      const { response, error } = await deleteDocument(document.id);
      expect(response.status).toBe(409);
      expect(error).toMatchObject({ code: 'DOCUMENT_SUBMITTED' });
      expect((await getDocument(document.id)).response.status).toBe(200);
    }
    expect((await replace(own.id, { documentType: 'CERTIFICATE_OF_INCORPORATION', country: 'US' })).response.status).toBe(200);
    expect((await deleteDocument(later.id)).response.status).toBe(204);
  });

  it('401: requires credentials', async () => {
    expect((await raw('DELETE', `/documents/${missingDocument}`, { auth: false })).status).toBe(401);
  });
});
