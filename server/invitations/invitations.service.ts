// UMA invitations. Any platform reads and claims an invitation by its code (the invitee's platform
// claims it), so guessing codes is limited per platform (byCode); only its creator cancels it. Claiming sends INVITATION_CLAIMED to the creator, whose
// platform then sends `amountToSend` itself: the service moves no money here.
import { randomBytes } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { scheduleJob } from '../jobs/schedule.ts';
import { isKnownCurrency } from '../shared/currencies.ts';
import { judgeInTurn, limitKey, type FailureLimit } from '../limits/failure-limits.service.ts';
import { ApiError, badRequest, forbidden, invalidField, notFound } from '../shared/errors.ts';
import { canonicalUmaAddress } from '../shared/uma-address.ts';
import { emitEvent } from '../webhooks/webhooks.service.ts';
import { expireInvitationJob } from './invitations.jobs.ts';
import { invitationStatus, toInvitation } from './invitations.mapper.ts';
import { closeLocked } from './close-invitation.ts';
import { findInvitation, findInvitationForUpdate, insertInvitation, type InvitationRow } from './invitations.repository.ts';

type Schemas = components['schemas'];
type Invitation = Schemas['Invitation'];

const newCode = (): string => randomBytes(4).toString('hex');

/**
 * Unknown codes one platform may look up (read, claim, cancel): 10 at once, then one more every 6
 * minutes. A code has 32 bits and any platform may use any code, so unlimited guesses would find
 * live ones (and claiming one redirects the inviter's payment). Counted per platform, the caller of
 * these operations whatever its tokens or addresses; no platform can slow another.
 */
export const UNKNOWN_INVITATION_LIMIT: FailureLimit = {
  name: 'invitation-code',
  max: 10,
  periodMs: 60 * 60_000,
  refusal: { code: 'RATE_LIMITED', message: 'Too many unknown invitation codes from this platform; wait before trying again.' },
};

/**
 * Runs `work` on an invitation found by its code: 429 while the platform has no attempt left
 * (whatever the code: an answer would tell a guesser it guessed right), and an unknown code
 * (404) counted against it. Look-ups of one platform take their turns (judgeInTurn), so a burst of
 * codes is judged no more than the limit allows. `ctx.db` must be the pool: `work` runs in the
 * turn's transaction, and the count outlives the request's.
 */
export async function byCode<T>(ctx: PlatformContext, work: (turn: PlatformContext) => Promise<T>): Promise<T> {
  const key = limitKey(UNKNOWN_INVITATION_LIMIT, ctx.platformId);
  return judgeInTurn(ctx, UNKNOWN_INVITATION_LIMIT, key, { judge: work, isFailure: (err) => err instanceof ApiError && err.code === 'INVITATION_NOT_FOUND' });
}

export async function createInvitation(ctx: PlatformContext, body: Schemas['InvitationCreateRequest']): Promise<Invitation> {
  const at = ctx.clock.now();
  const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt !== null && expiresAt.getTime() <= at.getTime()) throw invalidField('/expiresAt', 'expiresAt must be in the future.', 'minimum');
  const amount = body.amountToSend;
  if (amount !== undefined && !isKnownCurrency(amount.currencyCode)) throw invalidField('/amountToSend/currencyCode', `${amount.currencyCode} is not a currency the service supports.`, 'enum');
  let row: InvitationRow | undefined;
  // 2^32 codes: a collision is rare, and drawing again is enough.
  for (let attempt = 0; row === undefined && attempt < 5; attempt++) {
    row = await insertInvitation(ctx.db, {
      code: newCode(),
      platform_id: ctx.platformId,
      inviter_uma: body.inviterUma,
      first_name: body.firstName ?? null,
      amount: amount?.amount ?? null,
      currency: amount?.currencyCode ?? null,
      status: 'PENDING',
      invitee_uma: null,
      claimed_by_platform_id: null,
      claimed_at: null,
      expires_at: expiresAt,
      created_at: at,
      updated_at: at,
    });
  }
  if (row === undefined) throw new Error('invitations: no free code after 5 draws');
  if (expiresAt !== null) await scheduleJob(ctx, expireInvitationJob, expiresAt, { code: row.code });
  return toInvitation(row, at);
}

export async function getInvitation(ctx: PlatformContext, code: string): Promise<Invitation> {
  const row = await findInvitation(ctx.db, code);
  if (row === undefined) throw notFound('INVITATION_NOT_FOUND', 'No such invitation.');
  return toInvitation(row, ctx.clock.now());
}

/** The invitation, locked, when it can still be claimed or cancelled: 400 saying why not otherwise. */
async function lockPending(ctx: PlatformContext, code: string): Promise<InvitationRow> {
  const row = await findInvitationForUpdate(ctx.db, code);
  if (row === undefined) throw notFound('INVITATION_NOT_FOUND', 'No such invitation.');
  switch (invitationStatus(row, ctx.clock.now())) {
    case 'CLAIMED':
      throw badRequest('INVITATION_ALREADY_CLAIMED', `Invitation ${code} was already claimed.`);
    case 'CANCELLED':
      throw badRequest('INVITATION_CANCELLED', `Invitation ${code} was cancelled by its creator.`);
    case 'EXPIRED':
      throw badRequest('INVITATION_EXPIRED', `Invitation ${code} expired.`);
    case 'PENDING':
      return row;
  }
}

export async function claimInvitation(ctx: PlatformContext, code: string, body: Schemas['InvitationClaimRequest']): Promise<Invitation> {
  const row = await lockPending(ctx, code);
  if (canonicalUmaAddress(body.inviteeUma) === canonicalUmaAddress(row.inviter_uma)) {
    throw badRequest('INVALID_UMA_ADDRESS', 'The invitee cannot be the inviter: claim with the UMA address of the person invited.');
  }
  const at = ctx.clock.now();
  const claimed = await closeLocked(ctx, row, { status: 'CLAIMED', invitee_uma: body.inviteeUma, claimed_by_platform_id: ctx.platformId, claimed_at: at, updated_at: at });
  const invitation = toInvitation(claimed, at);
  // The creator is told, whichever platform claimed.
  await emitEvent({ ...ctx, platformId: claimed.platform_id }, 'INVITATION_CLAIMED', invitation);
  return invitation;
}

export async function cancelInvitation(ctx: PlatformContext, code: string): Promise<Invitation> {
  const existing = await findInvitation(ctx.db, code);
  if (existing !== undefined && existing.platform_id !== ctx.platformId) throw forbidden('FORBIDDEN', 'Only the platform that created an invitation can cancel it.');
  const row = await lockPending(ctx, code);
  const at = ctx.clock.now();
  return toInvitation(await closeLocked(ctx, row, { status: 'CANCELLED', updated_at: at }), at);
}
