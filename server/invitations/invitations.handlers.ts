// UMA invitations. Reading, claiming and cancelling find the invitation by its code, with unknown
// codes counted against the platform (invitations.service.ts byCode): claiming and cancelling run
// in a transaction of their own, so an unknown code's count is not rolled back with the request.
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { byCode, cancelInvitation, claimInvitation, createInvitation, getInvitation } from './invitations.service.ts';

export const invitationHandlers: AreaHandlers<'createInvitation' | 'getInvitation' | 'claimInvitation' | 'cancelInvitation'> = {
  createInvitation: async (req, ctx) => ({ status: 201, body: await createInvitation(ctx, req.body) }),
  // A read runs outside a transaction already.
  getInvitation: async (req, ctx) => ({ status: 200, body: await byCode(ctx, () => getInvitation(ctx, req.path.invitationCode)) }),
  claimInvitation: withoutTransaction(async (req, ctx) => ({
    status: 200,
    body: await byCode(ctx, () => ctx.transaction((trx) => claimInvitation(trx, req.path.invitationCode, req.body))),
  })),
  cancelInvitation: withoutTransaction(async (req, ctx) => ({
    status: 200,
    body: await byCode(ctx, () => ctx.transaction((trx) => cancelInvitation(trx, req.path.invitationCode))),
  })),
};
