// Invitation expiry as a durable job at `expiresAt`; reads already show it EXPIRED from then on.
import { defineJob } from '../jobs/job-definition.ts';
import { expireInvitation } from './invitations.service.ts';

export const expireInvitationJob = defineJob<{ code: string }>({
  kind: 'invitations.expire',
  transactional: true,
  retryDelaysMs: [1_000, 10_000, 60_000, 600_000],
  run: (ctx, { code }) => expireInvitation(ctx, code),
});
