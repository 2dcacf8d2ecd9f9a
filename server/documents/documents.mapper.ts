import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { compact } from '../shared/compact.ts';
import type { DocumentRow } from './documents.repository.ts';

export const toDocument = (row: DocumentRow): components['schemas']['Document'] =>
  compact({
    id: row.id,
    documentHolder: row.document_holder,
    documentType: row.document_type,
    country: row.country,
    side: row.side ?? undefined,
    documentNumber: row.document_number ?? undefined,
    issuingAuthority: row.issuing_authority ?? undefined,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
