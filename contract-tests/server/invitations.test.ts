// Invitations on a server of this file's own: expiry as the clock moves (EXPIRED on every read,
// no longer claimable or cancellable) and the INVITATION_CLAIMED webhook sent to the creating
// platform, signed, with the claimed invitation as its data.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { ownServer, ownWebhookReceiver } from '../support/own-server.ts';
import { validateAgainst } from '../support/schema-validator.ts';
import { advanceClock } from '../support/server-process.ts';

describe.skipIf(target !== 'pglite')('invitations over time', () => {
  const own = ownServer();
  const hooks = ownWebhookReceiver(own);

  const get = async (code: string) => (await own.via.GET('/invitations/{invitationCode}', { params: { path: { invitationCode: code } } })).data;

  it('claiming sends INVITATION_CLAIMED to the creator, signed, with the claimed invitation', async () => {
    const before = hooks.receiver.received.length;
    const { data: invitation } = await own.via.POST('/invitations', { body: { inviterUma: '$jane@payments.example.org', firstName: 'Jane', amountToSend: { amount: 5_000, currencyCode: 'USD' } } });
    if (invitation === undefined) throw new Error('not created');
    const { data: claimed } = await own.via.POST('/invitations/{invitationCode}/claim', { params: { path: { invitationCode: invitation.code } }, body: { inviteeUma: '$carlos@wallet.example.com' } });
    const [delivery] = (await hooks.receiver.waitFor(before + 1)).slice(before);
    if (delivery === undefined) throw new Error('no webhook');
    const event = new Webhook(hooks.secret).verify(delivery.body, delivery.headers) as { type: string; data: unknown };
    expect(event.type).toBe('INVITATION_CLAIMED');
    expect(event.data).toEqual(claimed);
    expect(await validateAgainst('#/components/schemas/InvitationClaimedWebhookEvent', JSON.parse(delivery.body))).toEqual([]);
    // Display only: no money moved, no transaction recorded.
    expect((await own.via.GET('/transactions')).data?.totalCount).toBe(0);
  });

  // Last: it moves the server's clock an hour on (webhook timestamps would follow it).
  it('past expiresAt: EXPIRED on every read, and claiming or cancelling is 400 INVITATION_EXPIRED', async () => {
    const now = Date.parse((await own.via.GET('/config')).response.headers.get('date') ?? '') || Date.now();
    const expiresAt = new Date(now + 3_600_000).toISOString();
    const { data: invitation } = await own.via.POST('/invitations', { body: { inviterUma: '$jane@payments.example.org', expiresAt } });
    if (invitation === undefined) throw new Error('not created');
    await advanceClock(own.server.origin, 3_600_000 + 1_000);
    expect((await get(invitation.code))?.status).toBe('EXPIRED');
    const claimed = await own.via.POST('/invitations/{invitationCode}/claim', { params: { path: { invitationCode: invitation.code } }, body: { inviteeUma: '$carlos@wallet.example.com' } });
    expect(claimed.response.status).toBe(400);
    expect(claimed.error).toMatchObject({ code: 'INVITATION_EXPIRED' });
    const cancelled = await own.via.POST('/invitations/{invitationCode}/cancel', { params: { path: { invitationCode: invitation.code } } });
    expect(cancelled.error).toMatchObject({ code: 'INVITATION_EXPIRED' });
  });
});
