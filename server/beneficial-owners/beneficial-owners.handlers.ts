// Beneficial owners: add, list, get, update.
import type { AreaHandlers } from '../context/handler-types.ts';
import { createBeneficialOwner, getBeneficialOwner, listBeneficialOwners, updateBeneficialOwner } from './beneficial-owners.service.ts';

export const beneficialOwnerHandlers: AreaHandlers<'createBeneficialOwner' | 'listBeneficialOwners' | 'getBeneficialOwner' | 'updateBeneficialOwner'> = {
  createBeneficialOwner: async (req, ctx) => ({ status: 201, body: await createBeneficialOwner(ctx, req.body) }),
  listBeneficialOwners: async (req, ctx) => ({ status: 200, body: await listBeneficialOwners(ctx, req.query) }),
  getBeneficialOwner: async (req, ctx) => ({ status: 200, body: await getBeneficialOwner(ctx, req.path.beneficialOwnerId) }),
  updateBeneficialOwner: async (req, ctx) => ({ status: 200, body: await updateBeneficialOwner(ctx, req.path.beneficialOwnerId, req.body) }),
};
