import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery } from '../db/paginate.ts';
import type { DocumentTable } from '../db/schema.ts';
import { SEALED_PREFIX } from '../shared/keyring.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

/** A document without its file: what every read returns (files are written, never read back). */
export type DocumentRow = Omit<Selectable<DocumentTable>, 'content'>;
export type NewDocumentRow = Omit<Insertable<DocumentTable>, 'submitted'>;
export type DocumentReplacement = Pick<
  NewDocumentRow,
  'document_type' | 'side' | 'country' | 'document_number' | 'issuing_authority' | 'file_name' | 'content_type' | 'size_bytes' | 'content'
>;

const COLUMNS = [
  'id', 'platform_id', 'customer_id', 'document_holder', 'document_type', 'side', 'country', 'document_number',
  'issuing_authority', 'file_name', 'content_type', 'size_bytes', 'submitted', 'created_at', 'updated_at',
] as const satisfies readonly (keyof DocumentRow)[];

export async function insertDocument(db: Db, row: NewDocumentRow): Promise<DocumentRow> {
  return db.insertInto('documents').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
}

export async function findDocument(db: Db, platformId: string, id: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').select(COLUMNS).where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst();
}

export async function replaceDocument(db: Db, id: string, replacement: DocumentReplacement, at: Date): Promise<DocumentRow> {
  return db.updateTable('documents').set({ ...replacement, updated_at: at }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
}

export async function deleteDocument(db: Db, id: string): Promise<void> {
  await db.deleteFrom('documents').where('id', '=', id).execute();
}

/** Marks every document of the customer and of its beneficial owners as used by a verification. */
export async function markCustomerDocumentsSubmitted(db: Db, customerId: string): Promise<void> {
  await db.updateTable('documents').set({ submitted: true }).where('customer_id', '=', customerId).where('submitted', '=', false).execute();
}

// Every column but the file: lists never carry file contents.
const documentsPage = pageQuery(
  'documents',
  (db, p: { platformId: string; documentHolder?: string }) => {
    const q = db.selectFrom('documents').where('platform_id', '=', p.platformId);
    return p.documentHolder === undefined ? q : q.where('document_holder', '=', p.documentHolder);
  },
  (s) => s.select(COLUMNS),
  {},
);

export async function listDocuments(db: Db, platformId: string, filters: { documentHolder?: string }, page: PageRequest): Promise<PageRows<DocumentRow>> {
  return documentsPage(db, { platformId, documentHolder: filters.documentHolder }, page);
}

export async function listUnsealedDocumentNumbers(db: Db): Promise<{ id: string; documentNumber: string }[]> {
  const rows = await db.selectFrom('documents').select(['id', 'document_number']).where('document_number', 'not like', `${SEALED_PREFIX}%`).execute();
  return rows.flatMap((r) => (r.document_number === null ? [] : [{ id: r.id, documentNumber: r.document_number }]));
}

export async function setDocumentNumber(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('documents').set({ document_number: sealed }).where('id', '=', id).execute();
}
