// UMA invitations. Reading, claiming and cancelling find the invitation by its code, with unknown
// codes counted against the platform (invitations.service.ts byCode): each runs in the
// transaction of its turn, so an unknown code's count is not rolled back with the request.
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { byCode, cancelInvitation, claimInvitation, createInvitation, getInvitation } from './invitations.service.ts';

export const invitationHandlers: AreaHandlers<'createInvitation' | 'getInvitation' | 'claimInvitation' | 'cancelInvitation'> = {
  createInvitation: async (req, ctx) => ({ status: 201, body: await createInvitation(ctx, req.body) }),
  getInvitation: withoutTransaction(async (req, ctx) => ({ status: 200, body: await byCode(ctx, (turn) => getInvitation(turn, req.path.invitationCode)) })),
  claimInvitation: withoutTransaction(async (req, ctx) => ({ status: 200, body: await byCode(ctx, (turn) => claimInvitation(turn, req.path.invitationCode, req.body)) })),
  cancelInvitation: withoutTransaction(async (req, ctx) => ({ status: 200, body: await byCode(ctx, (turn) => cancelInvitation(turn, req.path.invitationCode)) })),
};
