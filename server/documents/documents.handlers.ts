// Verification documents: upload, list, get, replace, delete.
import type { AreaHandlers } from '../context/handler-types.ts';
import { deleteDocument, getDocument, listDocuments, replaceDocument, uploadDocument } from './documents.service.ts';

export const documentHandlers: AreaHandlers<'uploadDocument' | 'listDocuments' | 'getDocument' | 'replaceDocument' | 'deleteDocument'> = {
  uploadDocument: async (req, ctx) => ({ status: 201, body: await uploadDocument(ctx, req.body, req.files) }),
  listDocuments: async (req, ctx) => ({ status: 200, body: await listDocuments(ctx, req.query) }),
  getDocument: async (req, ctx) => ({ status: 200, body: await getDocument(ctx, req.path.documentId) }),
  replaceDocument: async (req, ctx) => ({ status: 200, body: await replaceDocument(ctx, req.path.documentId, req.body, req.files) }),
  deleteDocument: async (req, ctx) => {
    await deleteDocument(ctx, req.path.documentId);
    return { status: 204, body: undefined };
  },
};
