import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { currency } from '../shared/currencies.ts';
import type { InvitationRow } from './invitations.repository.ts';

type Invitation = components['schemas']['Invitation'];

export const invitationUrl = (code: string): string => `https://uma.me/i/${code}`;

/** A PENDING invitation past its expiry reads as EXPIRED, before the job records it. */
export function invitationStatus(row: InvitationRow, now: Date): Invitation['status'] {
  return row.status === 'PENDING' && row.expires_at !== null && row.expires_at.getTime() <= now.getTime() ? 'EXPIRED' : row.status;
}

export function toInvitation(row: InvitationRow, now: Date): Invitation {
  return {
    code: row.code,
    createdAt: iso(row.created_at),
    url: invitationUrl(row.code),
    inviterUma: row.inviter_uma,
    status: invitationStatus(row, now),
    ...(row.claimed_at === null ? {} : { claimedAt: iso(row.claimed_at) }),
    ...(row.expires_at === null ? {} : { expiresAt: iso(row.expires_at) }),
    ...(row.invitee_uma === null ? {} : { inviteeUma: row.invitee_uma }),
    ...(row.first_name === null ? {} : { firstName: row.first_name }),
    ...(row.amount === null || row.currency === null ? {} : { amountToSend: { amount: row.amount, currency: currency(row.currency) } }),
  };
}
