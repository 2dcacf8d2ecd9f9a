// Verifications: start or re-evaluate (POST /verifications), list, get.
import type { AreaHandlers } from '../context/handler-types.ts';
import { createVerification, getVerification, listVerifications } from './verifications.service.ts';

export const verificationHandlers: AreaHandlers<'createVerification' | 'listVerifications' | 'getVerification'> = {
  createVerification: async (req, ctx) => ({ status: 200, body: await createVerification(ctx, req.body.customerId) }),
  listVerifications: async (req, ctx) => ({ status: 200, body: await listVerifications(ctx, req.query) }),
  getVerification: async (req, ctx) => ({ status: 200, body: await getVerification(ctx, req.path.verificationId) }),
};
