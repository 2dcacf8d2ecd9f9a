// UMA invitations: created PENDING with a code and a link, read by the code, claimed once
// (CLAIMED, with who and when) or cancelled by the inviter; what is decided stays decided.
import type { Check } from '../check.ts';
import type { components } from '../../../generated/openapi.js';
import type { World } from '../world.ts';
import { check, enc } from './define.ts';

type Invitation = components['schemas']['Invitation'];
const create = async (t: World, body: Record<string, unknown>) => t.expect<Invitation>(await t.call('POST', '/invitations', { body, key: t.key() }), 201, 'createInvitation answers 201');
const inviter = (t: World) => `$${t.uid()}@payments.example.org`;

export function invitationChecks(): Check[] {
  return [
    check('invitations.create', { operations: ['createInvitation', 'getInvitation'], status: 201, rule: 'an invitation is PENDING, has an 8-hex code and reads back the same by it (createInvitation, getInvitation)' }, async (t) => {
      const uma = inviter(t);
      const made = await create(t, { inviterUma: uma, firstName: 'Jane', amountToSend: { amount: 5_000, currencyCode: 'USD' }, expiresAt: '2099-01-01T00:00:00Z' });
      t.is.contains(made, { inviterUma: uma, status: 'PENDING', firstName: 'Jane', amountToSend: { amount: 5_000, currency: { code: 'USD' } } }, 'the invitation as sent, PENDING');
      t.is.ok(/^[0-9a-f]{8}$/.test(made.code), 'an invitation code is 8 hex digits (spec: Invitation.code)', '8 hex digits', () => made.code);
      t.is.equal(Date.parse(made.expiresAt ?? ''), Date.parse('2099-01-01T00:00:00Z'), 'expiresAt is kept');
      t.is.equal(t.expect(await t.call('GET', `/invitations/${enc(made.code)}`), 200, 'getInvitation answers 200'), made, 'getInvitation answers it as created');
    }),

    check('invitations.claim', { operations: ['claimInvitation', 'cancelInvitation'], status: 200, rule: 'a claim makes it CLAIMED with the invitee and when; a second claim, or a cancel, is 400 INVITATION_ALREADY_CLAIMED (claimInvitation, errors guide)' }, async (t) => {
      const made = await create(t, { inviterUma: inviter(t) });
      const invitee = `$${t.uid()}@wallet.example.com`;
      const claimed = t.expect<Invitation>(await t.call('POST', `/invitations/${enc(made.code)}/claim`, { body: { inviteeUma: invitee } }), 200, 'claimInvitation answers 200');
      t.is.contains(claimed, { code: made.code, status: 'CLAIMED', inviteeUma: invitee }, 'the claimed invitation names its invitee');
      t.is.ok(Date.parse(claimed.claimedAt ?? '') >= Date.parse(made.createdAt), 'claimedAt says when (spec: Invitation.claimedAt)', 'a time after its creation', () => String(claimed.claimedAt));
      t.expectError(await t.call('POST', `/invitations/${enc(made.code)}/claim`, { body: { inviteeUma: `$${t.uid()}@wallet.example.com` } }), 400, 'INVITATION_ALREADY_CLAIMED', 'an invitation is claimed once');
      t.expectError(await t.call('POST', `/invitations/${enc(made.code)}/cancel`), 400, 'INVITATION_ALREADY_CLAIMED', 'a claimed invitation cannot be cancelled');
      t.is.equal(t.expect(await t.call('GET', `/invitations/${enc(made.code)}`), 200, 'getInvitation answers 200'), claimed, 'it reads as claimed');
    }),

    check('invitations.cancel', { operations: ['cancelInvitation', 'claimInvitation'], status: 200, rule: 'the inviter cancels a PENDING invitation: CANCELLED; a claim after that is 400 INVITATION_CANCELLED (cancelInvitation, errors guide)' }, async (t) => {
      const made = await create(t, { inviterUma: inviter(t) });
      const cancelled = t.expect<Invitation>(await t.call('POST', `/invitations/${enc(made.code)}/cancel`), 200, 'cancelInvitation answers 200');
      t.is.contains(cancelled, { code: made.code, status: 'CANCELLED' }, 'the invitation is CANCELLED');
      t.expectError(await t.call('POST', `/invitations/${enc(made.code)}/claim`, { body: { inviteeUma: `$${t.uid()}@wallet.example.com` } }), 400, 'INVITATION_CANCELLED', 'a cancelled invitation cannot be claimed');
    }),

    check('invitations.400', { operations: ['createInvitation', 'claimInvitation'], status: 400, rule: 'an expiresAt in the past is 400 INVALID_INPUT; the inviter cannot claim their own invitation: 400 INVALID_UMA_ADDRESS (createInvitation, claimInvitation)' }, async (t) => {
      t.expectError(await t.call('POST', '/invitations', { body: { inviterUma: inviter(t), expiresAt: '2020-01-01T00:00:00Z' }, key: t.key() }), 400, 'INVALID_INPUT', 'an invitation expires in the future');
      const uma = inviter(t);
      const made = await create(t, { inviterUma: uma });
      t.expectError(await t.call('POST', `/invitations/${enc(made.code)}/claim`, { body: { inviteeUma: uma } }), 400, 'INVALID_UMA_ADDRESS', 'the inviter is not the invitee');
    }),
  ];
}
