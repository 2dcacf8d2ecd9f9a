// What a customer's verification is made of: beneficial owners (with the sandbox's KYC by last
// name), documents (upload, replace, the file rules, DOCUMENT_SUBMITTED) and verifications (KYB and
// KYC by the sandbox's suffixes, RESOLVE_ERRORS, a new one after a decision).
import type { Check } from '../check.ts';
import type { components } from '../../../generated/openapi.js';
import { business, document, individual, owner, ownerPersonalInfo, pdfFile, uploadForm, verification, type Customer, type Page } from '../fixtures.ts';
import type { World } from '../world.ts';
import { check, enc, ids } from './define.ts';

type Owner = components['schemas']['BeneficialOwner'];
type Document = components['schemas']['Document'];
type Verification = components['schemas']['Verification'];

const SANDBOX = 'sandbox guide: KYC and KYB by suffix';
const getOwner = async (t: World, id: string) => t.expect<Owner>(await t.call('GET', `/beneficial-owners/${enc(id)}`), 200, 'getBeneficialOwner answers 200');
const patchOwner = (t: World, id: string, body: unknown) => t.call('PATCH', `/beneficial-owners/${enc(id)}`, { body });
const getDocument = (t: World, id: string) => t.call('GET', `/documents/${enc(id)}`);
const status = async (t: World, customerId: string) => {
  const c = t.expect<Customer>(await t.call('GET', `/customers/${enc(customerId)}`), 200, 'getCustomer answers 200');
  return c.customerType === 'BUSINESS' ? c.kybStatus : c.kycStatus;
};
const png = () => ({ blob: new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(292).fill(0x20)])], { type: 'image/png' }), name: 'selfie.png' });

export function customerDataChecks(): Check[] {
  return [
    check('beneficial-owners.create', { operations: ['createBeneficialOwner', 'getBeneficialOwner', 'listBeneficialOwners'], status: 201, rule: `an owner of a business is checked at once (lastName ending 001 PENDING, 002 REJECTED, else APPROVED), shows its identifier masked to the last four characters, and reads back the same (${SANDBOX}; createBeneficialOwner)`, needs: ['state', 'sandbox'] }, async (t) => {
      const company = await business(t);
      const made = await owner(t, company.id, { personalInfo: { ...ownerPersonalInfo(), middleName: 'Robert' } });
      t.is.contains(made, { customerId: company.id, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 40, kycStatus: 'APPROVED', personalInfo: { lastName: 'Smith', middleName: 'Robert' } }, 'the owner as sent, APPROVED');
      t.is.equal(made.personalInfo.identifier, `****${String(ownerPersonalInfo().identifier).slice(-4)}`, 'an identity number is shown masked, **** and its last four characters (spec: BeneficialOwnerPersonalInfo.identifier)');
      t.is.equal(await getOwner(t, made.id), made, 'getBeneficialOwner answers the owner as created');
      for (const [lastName, kycStatus] of [['Garcia001', 'PENDING'], ['Garcia002', 'REJECTED']] as const) {
        const other = await owner(t, company.id, { roles: ['COMPANY_OFFICER'], ownershipPercentage: undefined, personalInfo: ownerPersonalInfo(lastName) });
        t.is.equal(other.kycStatus, kycStatus, `lastName ${lastName}: ${kycStatus} (${SANDBOX})`);
      }
      const listed = t.expect<Page<Owner>>(await t.call('GET', '/beneficial-owners', { query: { customerId: company.id } }), 200, 'listBeneficialOwners answers 200');
      t.is.equal(listed.totalCount, 3, "listBeneficialOwners by customerId lists the business's owners");
    }),

    check('beneficial-owners.400', { operations: ['createBeneficialOwner'], status: 400, rule: 'a UBO needs an ownershipPercentage (400 INVALID_INPUT naming it); an individual customer has no owners (400 CUSTOMER_NOT_BUSINESS) (errors guide)' }, async (t) => {
      const company = await business(t);
      const noShare = await t.call('POST', '/beneficial-owners', { body: { customerId: company.id, roles: ['UBO'], personalInfo: ownerPersonalInfo() }, key: t.key() });
      t.expectError(noShare, 400, 'INVALID_INPUT', 'a UBO has a share');
      const fields = ((noShare.body as { details?: { errors?: { field: string }[] } }).details?.errors ?? []).map((e) => e.field);
      t.is.ok(fields.includes('/ownershipPercentage'), 'details.errors names /ownershipPercentage (errors guide)', '/ownershipPercentage', () => JSON.stringify(fields), noShare);
      const person = await individual(t);
      t.expectError(await t.call('POST', '/beneficial-owners', { body: { customerId: person.id, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo() }, key: t.key() }), 400, 'CUSTOMER_NOT_BUSINESS', 'owners are of businesses');
    }),

    check('beneficial-owners.update', { operations: ['updateBeneficialOwner'], status: 200, rule: `PATCH changes only the fields sent; a new lastName runs the check again (${SANDBOX}; updateBeneficialOwner)`, needs: ['state', 'sandbox'] }, async (t) => {
      const made = await owner(t, (await business(t)).id, { personalInfo: { ...ownerPersonalInfo(), phoneNumber: '+14155550177' } });
      const updated = t.expect<Owner>(await patchOwner(t, made.id, { ownershipPercentage: 55, personalInfo: { email: 'j.smith@example.com' } }), 200, 'updateBeneficialOwner answers 200');
      t.is.contains(updated, { ownershipPercentage: 55, roles: ['UBO', 'DIRECTOR'], kycStatus: 'APPROVED', personalInfo: { email: 'j.smith@example.com', phoneNumber: '+14155550177', lastName: 'Smith' } }, 'fields not sent keep their values');
      t.is.equal(await getOwner(t, made.id), updated, 'getBeneficialOwner answers the owner as updated');
      const renamed = t.expect<Owner>(await patchOwner(t, made.id, { personalInfo: { lastName: 'Smith002' } }), 200, 'updateBeneficialOwner answers 200');
      t.is.equal(renamed.kycStatus, 'REJECTED', `a new lastName ending 002 is REJECTED (${SANDBOX})`);
    }),

    check('beneficial-owners.410', { operations: ['createBeneficialOwner', 'updateBeneficialOwner'], status: 410, rule: 'a deleted customer gets no new owner and its owners cannot change: 410 CUSTOMER_DELETED (errors guide)' }, async (t) => {
      const company = await business(t);
      const made = await owner(t, company.id);
      t.expect(await t.call('DELETE', `/customers/${enc(company.id)}`), 200, 'deleteCustomer answers 200');
      t.expectError(await patchOwner(t, made.id, { ownershipPercentage: 5 }), 410, 'CUSTOMER_DELETED', "a deleted customer's owner does not change");
      t.expectError(await t.call('POST', '/beneficial-owners', { body: { customerId: company.id, roles: ['DIRECTOR'], personalInfo: ownerPersonalInfo() }, key: t.key() }), 410, 'CUSTOMER_DELETED', 'no new owner for a deleted customer');
    }),

    check('documents.upload', { operations: ['uploadDocument', 'getDocument', 'listDocuments'], status: 201, rule: 'an uploaded document describes its file (name, type from the content, size) and reads back the same (uploadDocument)' }, async (t) => {
      const holder = await individual(t);
      const form = uploadForm({ documentHolder: holder.id, documentType: 'PASSPORT', country: 'US', documentNumber: '563891247' }, { blob: pdfFile(2048), name: 'jane-doe-passport.pdf' });
      const made = t.expect<Document>(await t.call('POST', '/documents', { form, key: t.key() }), 201, 'uploadDocument answers 201');
      t.is.contains(made, { documentHolder: holder.id, documentType: 'PASSPORT', country: 'US', documentNumber: '563891247', fileName: 'jane-doe-passport.pdf', contentType: 'application/pdf', sizeBytes: 2048 }, 'the document describes its file');
      t.is.equal(t.expect(await getDocument(t, made.id), 200, 'getDocument answers 200'), made, 'getDocument answers the document as uploaded');
      const listed = t.expect<Page<Document>>(await t.call('GET', '/documents', { query: { documentHolder: holder.id } }), 200, 'listDocuments answers 200');
      t.is.equal(ids(listed.data), [made.id], "listDocuments by documentHolder lists the holder's documents");
    }),

    check('documents.400-file-type', { operations: ['uploadDocument'], status: 400, rule: 'a file that is not a PDF, JPEG or PNG (by its content) is 400 UNSUPPORTED_FILE_TYPE and nothing is stored (errors guide)' }, async (t) => {
      const holder = await individual(t);
      for (const file of [{ blob: new Blob(['just text'], { type: 'text/plain' }), name: 'notes.txt' }, { blob: new Blob(['MZ not really a pdf'], { type: 'application/pdf' }), name: 'virus.pdf' }]) {
        const reply = await t.call('POST', '/documents', { form: uploadForm({ documentHolder: holder.id, documentType: 'PASSPORT', country: 'US' }, file), key: t.key() });
        t.expectError(reply, 400, 'UNSUPPORTED_FILE_TYPE', `${file.name} is not a PDF, JPEG or PNG`);
      }
      t.is.equal(t.expect<Page<Document>>(await t.call('GET', '/documents', { query: { documentHolder: holder.id } }), 200, 'listDocuments answers 200').totalCount, 0, 'a refused upload stores nothing');
    }),

    check('documents.replace', { operations: ['replaceDocument', 'getDocument'], status: 200, rule: 'PUT replaces the file and every field; optional fields not sent are cleared; the holder stays (replaceDocument)' }, async (t) => {
      const holder = await individual(t);
      const made = await document(t, holder.id, { documentNumber: '563891247', side: 'FRONT' });
      const replaced = t.expect<Document>(await t.call('PUT', `/documents/${enc(made.id)}`, { form: uploadForm({ documentType: 'NATIONAL_ID', country: 'FR' }, png()) }), 200, 'replaceDocument answers 200');
      t.is.contains(replaced, { id: made.id, documentHolder: holder.id, documentType: 'NATIONAL_ID', country: 'FR', contentType: 'image/png', fileName: 'selfie.png', createdAt: made.createdAt }, 'the document is the new one');
      t.is.ok(!('documentNumber' in replaced) && !('side' in replaced), 'fields not sent are cleared by a replace (replaceDocument)', 'no documentNumber, no side', () => JSON.stringify(replaced));
      t.is.equal(t.expect(await getDocument(t, made.id), 200, 'getDocument answers 200'), replaced, 'getDocument answers the replaced document');
    }),

    check('documents.delete', { operations: ['deleteDocument', 'getDocument'], status: 204, rule: 'a deleted document is gone: 404 DOCUMENT_NOT_FOUND (deleteDocument)' }, async (t) => {
      const made = await document(t, (await individual(t)).id);
      t.expect(await t.call('DELETE', `/documents/${enc(made.id)}`), 204, 'deleteDocument answers 204');
      t.expectError(await getDocument(t, made.id), 404, 'DOCUMENT_NOT_FOUND', 'a deleted document is not found');
    }),

    check('documents.409-submitted', { operations: ['deleteDocument', 'createVerification'], status: 409, rule: 'a document a verification used cannot be deleted (409 DOCUMENT_SUBMITTED) but can be replaced; a later one can be deleted (errors guide)', needs: ['state', 'sandbox'] }, async (t) => {
      const company = await business(t, {}, { registrationNumber: 'C4829123' });
      const used = await document(t, company.id, { documentType: 'CERTIFICATE_OF_INCORPORATION' });
      await verification(t, company.id);
      const later = await document(t, company.id, { documentType: 'PROOF_OF_ADDRESS' });
      t.expectError(await t.call('DELETE', `/documents/${enc(used.id)}`), 409, 'DOCUMENT_SUBMITTED', 'a submitted document stays');
      t.expect(await getDocument(t, used.id), 200, 'the submitted document is still there');
      t.expect(await t.call('PUT', `/documents/${enc(used.id)}`, { form: uploadForm({ documentType: 'CERTIFICATE_OF_INCORPORATION', country: 'US' }) }), 200, 'a submitted document can be replaced');
      t.expect(await t.call('DELETE', `/documents/${enc(later.id)}`), 204, 'a document no verification used can be deleted');
    }),

    check('documents.410', { operations: ['uploadDocument', 'replaceDocument', 'deleteDocument'], status: 410, rule: "a deleted customer's documents cannot be added, replaced or deleted: 410 CUSTOMER_DELETED (errors guide)" }, async (t) => {
      const holder = await individual(t);
      const made = await document(t, holder.id);
      t.expect(await t.call('DELETE', `/customers/${enc(holder.id)}`), 200, 'deleteCustomer answers 200');
      t.expectError(await t.call('POST', '/documents', { form: uploadForm({ documentHolder: holder.id, documentType: 'PASSPORT', country: 'US' }), key: t.key() }), 410, 'CUSTOMER_DELETED', 'no upload for a deleted customer');
      t.expectError(await t.call('PUT', `/documents/${enc(made.id)}`, { form: uploadForm({ documentType: 'PASSPORT', country: 'US' }) }), 410, 'CUSTOMER_DELETED', "no replace of a deleted customer's document");
      t.expectError(await t.call('DELETE', `/documents/${enc(made.id)}`), 410, 'CUSTOMER_DELETED', "no delete of a deleted customer's document");
    }),

    check('verifications.kyb', { operations: ['createVerification', 'getVerification', 'getCustomer'], status: 200, rule: `a business's registrationNumber ending 001 is PENDING_MANUAL_REVIEW (kybStatus PENDING), 002 REJECTED, else APPROVED (${SANDBOX}; createVerification)`, needs: ['state', 'sandbox'] }, async (t) => {
      for (const [registrationNumber, verificationStatus, kybStatus] of [['C4829001', 'PENDING_MANUAL_REVIEW', 'PENDING'], ['C4829002', 'REJECTED', 'REJECTED'], ['C4829123', 'APPROVED', 'APPROVED']] as const) {
        const company = await business(t, {}, { registrationNumber });
        t.is.equal(await status(t, company.id), undefined, 'a new business has no kybStatus (spec: BusinessCustomer.kybStatus)');
        const made = await verification(t, company.id);
        t.is.contains(made, { customerId: company.id, verificationStatus, errors: [] }, `registrationNumber ${registrationNumber}: ${verificationStatus} (${SANDBOX})`);
        t.is.equal(await status(t, company.id), kybStatus, `registrationNumber ${registrationNumber}: kybStatus ${kybStatus}`);
        t.is.equal(t.expect(await t.call('GET', `/verifications/${enc(made.id)}`), 200, 'getVerification answers 200'), made, 'getVerification answers it as created');
      }
    }),

    check('verifications.kyc', { operations: ['createVerification'], status: 200, rule: `an individual's fullName ending 001 is PENDING_MANUAL_REVIEW, 002 REJECTED, else APPROVED (${SANDBOX})`, needs: ['state', 'sandbox'] }, async (t) => {
      for (const [fullName, verificationStatus, kycStatus] of [['Jane Doe001', 'PENDING_MANUAL_REVIEW', 'PENDING'], ['Jane Doe002', 'REJECTED', 'REJECTED'], ['Jane Doe', 'APPROVED', 'APPROVED']] as const) {
        const person = await individual(t, { fullName });
        t.is.contains(await verification(t, person.id), { verificationStatus }, `fullName ${fullName}: ${verificationStatus} (${SANDBOX})`);
        t.is.equal(await status(t, person.id), kycStatus, `fullName ${fullName}: kycStatus ${kycStatus}`);
      }
    }),

    check('verifications.resolve-errors', { operations: ['createVerification', 'listVerifications'], status: 200, rule: 'missing data gives RESOLVE_ERRORS naming the field, the status unchanged; once fixed the same verification is decided; after a decision a new one checks the current data (createVerification)', needs: ['state', 'sandbox'] }, async (t) => {
      const company = await business(t);
      const first = await verification(t, company.id);
      t.is.contains(first, { verificationStatus: 'RESOLVE_ERRORS', errors: [{ resourceId: company.id, type: 'MISSING_FIELD', field: 'businessInfo.registrationNumber' }] }, 'a business without registrationNumber must resolve it');
      t.is.equal(await status(t, company.id), undefined, 'RESOLVE_ERRORS leaves the business without a kybStatus');
      t.expect(await t.call('PATCH', `/customers/${enc(company.id)}`, { body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829123' } } }), 200, 'updateCustomer answers 200');
      const fixed = await verification(t, company.id);
      t.is.contains(fixed, { id: first.id, verificationStatus: 'APPROVED', errors: [] }, 'the same verification is decided once the data is there');
      t.expect(await t.call('PATCH', `/customers/${enc(company.id)}`, { body: { customerType: 'BUSINESS', businessInfo: { registrationNumber: 'C4829002' } } }), 200, 'updateCustomer answers 200');
      const second = await verification(t, company.id);
      t.is.ok(second.id !== first.id, 'after a decision a new verification is made', 'a new id', () => second.id);
      t.is.equal(second.verificationStatus, 'REJECTED', 'the new verification checks the current data');
      const listed = t.expect<Page<Verification>>(await t.call('GET', '/verifications', { query: { customerId: company.id } }), 200, 'listVerifications answers 200');
      t.is.equal(ids(listed.data), [second.id, first.id], "listVerifications lists the customer's verifications, newest first");
    }),

    check('verifications.410', { operations: ['createVerification'], status: 410, rule: 'a deleted customer cannot be verified: 410 CUSTOMER_DELETED (errors guide)' }, async (t) => {
      const person = await individual(t);
      t.expect(await t.call('DELETE', `/customers/${enc(person.id)}`), 200, 'deleteCustomer answers 200');
      t.expectError(await t.call('POST', '/verifications', { body: { customerId: person.id }, key: t.key() }), 410, 'CUSTOMER_DELETED', 'no verification of a deleted customer');
    }),
  ];
}
