// UMA invitations.
import type { AreaHandlers } from '../http/handler-types.ts';
import { cancelInvitation, claimInvitation, createInvitation, getInvitation } from './invitations.service.ts';

export const invitationHandlers: AreaHandlers<'createInvitation' | 'getInvitation' | 'claimInvitation' | 'cancelInvitation'> = {
  createInvitation: async (req, ctx) => ({ status: 201, body: await createInvitation(ctx, req.body) }),
  getInvitation: async (req, ctx) => ({ status: 200, body: await getInvitation(ctx, req.path.invitationCode) }),
  claimInvitation: async (req, ctx) => ({ status: 200, body: await claimInvitation(ctx, req.path.invitationCode, req.body) }),
  cancelInvitation: async (req, ctx) => ({ status: 200, body: await cancelInvitation(ctx, req.path.invitationCode) }),
};
