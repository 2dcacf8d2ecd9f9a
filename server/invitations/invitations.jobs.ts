// Invitation expiry as a durable job at `expiresAt`; reads already show it EXPIRED from then on.
import type { ServiceContext } from '../context/context.ts';
import { defineJob } from '../jobs/job-definition.ts';
import { closeLocked } from './close-invitation.ts';
import { findInvitationForUpdate } from './invitations.repository.ts';

/** A PENDING invitation past `expiresAt` becomes EXPIRED; one claimed or cancelled meanwhile stays as it is. */
export async function expireInvitation(ctx: ServiceContext, code: string): Promise<void> {
  const row = await findInvitationForUpdate(ctx.db, code);
  if (row === undefined || row.status !== 'PENDING' || row.expires_at === null || row.expires_at.getTime() > ctx.clock.now().getTime()) return;
  await closeLocked(ctx, row, { status: 'EXPIRED', updated_at: ctx.clock.now() });
}

export const expireInvitationJob = defineJob<{ code: string }>({
  kind: 'invitations.expire',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { code }) => expireInvitation(ctx, code),
});
