// Verification documents of customers and beneficial owners: upload (the file kept in the
// database), list, get, replace, delete (refused once a verification has used the document).
import type { components } from '../../generated/openapi.js';
import { requireBeneficialOwner } from '../beneficial-owners/beneficial-owners.service.ts';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { requireLiveCustomer } from '../customers/customers.service.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { newOpaqueId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import type { UploadedFile } from '../shared/uploaded-file.ts';
import { checkedFile, type CheckedFile } from './document-files.ts';
import { toDocument } from './documents.mapper.ts';
import {
  deleteDocument as deleteRow,
  findDocument,
  insertDocument,
  listDocuments as listRows,
  listUnsealedDocumentNumbers,
  markCustomerDocumentsSubmitted,
  replaceDocument as replaceRow,
  setDocumentNumber,
  type DocumentRow,
} from './documents.repository.ts';

type Schemas = components['schemas'];
type Document = Schemas['Document'];
type DocumentMetadata = Pick<Schemas['DocumentReplaceRequest'], 'documentType' | 'side' | 'country' | 'documentNumber' | 'issuingAuthority'>;

/** The customer a holder belongs to (a beneficial owner's is its business), when it may still be changed. */
async function holderCustomerId(ctx: PlatformContext, holder: string): Promise<string> {
  const customerId = holder.startsWith('BeneficialOwner:') ? (await requireBeneficialOwner(ctx, holder)).customer_id : holder;
  return (await requireLiveCustomer(ctx, customerId)).id;
}

/**
 * The columns an upload and a replacement both write: the metadata sent and the checked file. The
 * document number (a passport's, an ID card's) is an identity number: stored sealed, like the
 * customers' and owners' identifiers, so a database dump holds none in clear.
 */
const documentFields = (ctx: PlatformContext, body: DocumentMetadata, file: CheckedFile) => ({
  document_type: body.documentType,
  side: body.side ?? null,
  country: body.country,
  document_number: body.documentNumber === undefined ? null : ctx.keys.seal(body.documentNumber),
  issuing_authority: body.issuingAuthority ?? null,
  file_name: file.fileName,
  content_type: file.contentType,
  size_bytes: file.content.length,
  content: file.content,
});

/** The API object of a row, its document number opened. */
const shown = (ctx: PlatformContext) => (row: DocumentRow): Document =>
  toDocument({ ...row, document_number: row.document_number === null ? null : ctx.keys.open(row.document_number) });

async function requireDocument(ctx: PlatformContext, id: string): Promise<DocumentRow> {
  const row = await findDocument(ctx.db, ctx.platformId, id);
  if (row === undefined) throw notFound('DOCUMENT_NOT_FOUND', 'No such document.');
  return row;
}

export async function uploadDocument(ctx: PlatformContext, body: Schemas['DocumentUploadRequest'], files: UploadedFile[]): Promise<Document> {
  const file = checkedFile(files);
  const customerId = await holderCustomerId(ctx, body.documentHolder);
  const at = ctx.clock.now();
  const row = await insertDocument(ctx.db, {
    id: newOpaqueId(),
    platform_id: ctx.platformId,
    customer_id: customerId,
    document_holder: body.documentHolder,
    ...documentFields(ctx, body, file),
    created_at: at,
    updated_at: at,
  });
  return shown(ctx)(row);
}

export async function listDocuments(ctx: PlatformContext, query: { documentHolder?: string; limit?: number; cursor?: string }): Promise<Page<Document>> {
  return listPage(ctx.keys, query, (filters, page) => listRows(ctx.db, ctx.platformId, filters, page), shown(ctx));
}

export async function getDocument(ctx: PlatformContext, id: string): Promise<Document> {
  return shown(ctx)(await requireDocument(ctx, id));
}

export async function replaceDocument(ctx: PlatformContext, id: string, body: Schemas['DocumentReplaceRequest'], files: UploadedFile[]): Promise<Document> {
  const file = checkedFile(files);
  const current = await requireDocument(ctx, id);
  await requireLiveCustomer(ctx, current.customer_id);
  // Everything is replaced: optional fields not sent are cleared. A submitted document stays
  // submitted: the verification that used it keeps it on record.
  return shown(ctx)(await replaceRow(ctx.db, current.id, documentFields(ctx, body, file), ctx.clock.now()));
}

export async function deleteDocument(ctx: PlatformContext, id: string): Promise<void> {
  const found = await requireDocument(ctx, id);
  await requireLiveCustomer(ctx, found.customer_id);
  // Read again under the customer's lock: a verification running meanwhile may have used it.
  const current = await requireDocument(ctx, found.id);
  if (current.submitted) throw conflict('DOCUMENT_SUBMITTED', 'A verification has used this document; replace it with PUT /documents/{documentId} instead.');
  await deleteRow(ctx.db, current.id);
}

/** Every document of the customer uploaded until now counts as used by a verification. */
export async function markDocumentsSubmitted(ctx: PlatformContext, customerId: string): Promise<void> {
  await markCustomerDocumentsSubmitted(ctx.db, customerId);
}

/** Document numbers stored before the server sealed them are sealed once, at start. */
export async function sealLegacyDocumentNumbers(ctx: ServiceContext): Promise<number> {
  const legacy = await listUnsealedDocumentNumbers(ctx.db);
  for (const d of legacy) await setDocumentNumber(ctx.db, d.id, ctx.keys.seal(d.documentNumber));
  return legacy.length;
}
