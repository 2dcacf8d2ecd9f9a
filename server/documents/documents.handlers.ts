// Verification documents of customers and beneficial owners: upload (multipart, file kept in the
// database), list, get, replace, delete (refused once a verification has used the document).
import type { components } from '../../generated/openapi.js';
import { requireBeneficialOwner } from '../beneficial-owners/beneficial-owners.handlers.ts';
import { compact } from '../customers/compact.ts';
import { requireLiveCustomer } from '../customers/customer-access.ts';
import type { Db } from '../db/database.ts';
import { conflict, notFound } from '../http/errors.ts';
import { iso, newId, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { listPage } from '../http/pagination.ts';
import { checkedFile, type CheckedFile } from './document-files.ts';
import { deleteDocument, findDocument, insertDocument, listDocuments, replaceDocument, type DocumentRow } from './documents.repository.ts';

type Schemas = components['schemas'];
type Document = Schemas['Document'];

export const toDocument = (row: DocumentRow): Document =>
  compact({
    id: row.id,
    documentHolder: row.document_holder,
    documentType: row.document_type as Schemas['DocumentType'],
    country: row.country,
    side: (row.side ?? undefined) as Schemas['DocumentSide'] | undefined,
    documentNumber: row.document_number ?? undefined,
    issuingAuthority: row.issuing_authority ?? undefined,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });

/** The customer a holder belongs to (a beneficial owner's is its business), when it may still be changed. */
async function holderCustomerId(db: Db, platformId: string, holder: string): Promise<string> {
  const customerId = holder.startsWith('BeneficialOwner:') ? (await requireBeneficialOwner(db, platformId, holder)).customer_id : holder;
  return (await requireLiveCustomer(db, platformId, customerId)).id;
}

type DocumentMetadata = Pick<Schemas['DocumentReplaceRequest'], 'documentType' | 'side' | 'country' | 'documentNumber' | 'issuingAuthority'>;

/** The columns an upload and a replacement both write: the metadata sent and the checked file. */
const documentFields = (body: DocumentMetadata, file: CheckedFile) => ({
  document_type: body.documentType,
  side: body.side ?? null,
  country: body.country,
  document_number: body.documentNumber ?? null,
  issuing_authority: body.issuingAuthority ?? null,
  file_name: file.fileName,
  content_type: file.contentType,
  size_bytes: file.content.length,
  content: file.content,
});

async function requireDocument(db: Db, platformId: string, id: string): Promise<DocumentRow> {
  const row = await findDocument(db, platformId, id);
  if (row === undefined) throw notFound('DOCUMENT_NOT_FOUND', 'No such document.');
  return row;
}

export const documentHandlers: AreaHandlers<'uploadDocument' | 'listDocuments' | 'getDocument' | 'replaceDocument' | 'deleteDocument'> = {
  async uploadDocument(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    const file = checkedFile(req.files);
    const customerId = await holderCustomerId(ctx.db, platformId, body.documentHolder);
    const at = now();
    const row = await insertDocument(ctx.db, {
      id: newId('Document'),
      platform_id: platformId,
      customer_id: customerId,
      document_holder: body.documentHolder,
      ...documentFields(body, file),
      created_at: at,
      updated_at: at,
    });
    return { status: 201, body: toDocument(row) };
  },

  async listDocuments(req, ctx) {
    return { status: 200, body: await listPage(req.query, (filters, page) => listDocuments(ctx.db, ctx.principal.platformId, filters, page), toDocument) };
  },

  async getDocument(req, ctx) {
    return { status: 200, body: toDocument(await requireDocument(ctx.db, ctx.principal.platformId, req.path.documentId)) };
  },

  async replaceDocument(req, ctx) {
    const body = req.body;
    const platformId = ctx.principal.platformId;
    const file = checkedFile(req.files);
    const current = await requireDocument(ctx.db, platformId, req.path.documentId);
    await requireLiveCustomer(ctx.db, platformId, current.customer_id);
    // Everything is replaced: optional fields not sent are cleared. A submitted document stays
    // submitted: the verification that used it keeps it on record.
    const row = await replaceDocument(ctx.db, current.id, documentFields(body, file), now());
    return { status: 200, body: toDocument(row) };
  },

  async deleteDocument(req, ctx) {
    const platformId = ctx.principal.platformId;
    const found = await requireDocument(ctx.db, platformId, req.path.documentId);
    await requireLiveCustomer(ctx.db, platformId, found.customer_id);
    // Read again under the customer's lock: a verification running meanwhile may have used it.
    const current = await requireDocument(ctx.db, platformId, found.id);
    if (current.submitted) {
      throw conflict('DOCUMENT_SUBMITTED', 'A verification has used this document; replace it with PUT /documents/{documentId} instead.');
    }
    await deleteDocument(ctx.db, current.id);
    return { status: 204, body: undefined };
  },
};
