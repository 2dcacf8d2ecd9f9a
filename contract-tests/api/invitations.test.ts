// UMA invitations: createInvitation, getInvitation, claimInvitation, cancelInvitation. Statuses
// follow the state machine (PENDING → CLAIMED | CANCELLED | EXPIRED), claiming moves no money, and
// two claims at once have one winner. Expiry on the clock and the INVITATION_CLAIMED webhook:
// ../server/invitations.test.ts; another platform claiming: platform-isolation.test.ts. A claim and
// the inviter's own claim are the conformance kit's invitations.* checks (conformance-kit.test.ts);
// unknown codes are here: the kit leaves them out, as each spends one of the platform's 10 look-ups.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { api, errorOf, idempotencyKey, isMock, itServer, raw, unique } from '../support/api.ts';
import { jsonBody } from '../support/raw-requests.ts';

type Invitation = components['schemas']['Invitation'];

const inviter = () => `$jane.${unique()}@payments.example.org`;

async function create(body: components['schemas']['InvitationCreateRequest']): Promise<Invitation> {
  const { data, response } = await api.POST('/invitations', { body });
  if (data === undefined) throw new Error(`POST /invitations: ${response.status}`);
  return data;
}
const claim = (code: string, inviteeUma: string) => raw('POST', `/invitations/${code}/claim`, jsonBody({ inviteeUma }));
const cancel = (code: string) => raw('POST', `/invitations/${code}/cancel`);

describe('createInvitation', () => {
  it('201: a PENDING invitation with its code, its link and the amount to show', async () => {
    const uma = inviter();
    const invitation = await create({ inviterUma: uma, firstName: 'Jane', amountToSend: { amount: 5_000, currencyCode: 'USD' }, expiresAt: '2099-01-01T00:00:00Z' });
    if (isMock) return;
    expect(invitation).toMatchObject({
      inviterUma: uma,
      status: 'PENDING',
      firstName: 'Jane',
      expiresAt: '2099-01-01T00:00:00.000Z',
      amountToSend: { amount: 5_000, currency: { code: 'USD', decimals: 2 } },
    });
    expect(invitation.code).toMatch(/^[0-9a-f]{8}$/);
    expect(invitation.url).toBe(`https://uma.me/i/${invitation.code}`);
    expect((await api.GET('/invitations/{invitationCode}', { params: { path: { invitationCode: invitation.code } } })).data).toEqual(invitation);
  });

  itServer('without expiresAt it never expires; with an Idempotency-Key a retry is the same invitation, another body 422', async () => {
    const key = idempotencyKey();
    const body = JSON.stringify({ inviterUma: inviter() });
    const first = await raw('POST', '/invitations', { headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body });
    const again = await raw('POST', '/invitations', { headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const invitation = (await first.json()) as Invitation;
    expect((await again.json()) as Invitation).toEqual(invitation);
    expect(invitation).not.toHaveProperty('expiresAt');
    const other = await raw('POST', '/invitations', { headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify({ inviterUma: inviter() }) });
    expect(other.status).toBe(422);
    expect((await errorOf(other)).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  itServer('400 INVALID_INPUT: expiresAt in the past, or an unknown currency', async () => {
    const past = await raw('POST', '/invitations', jsonBody({ inviterUma: inviter(), expiresAt: '2020-01-01T00:00:00Z' }));
    expect(past.status).toBe(400);
    expect((await errorOf(past)).code).toBe('INVALID_INPUT');
    const currency = await raw('POST', '/invitations', jsonBody({ inviterUma: inviter(), amountToSend: { amount: 100, currencyCode: 'XYZ' } }));
    expect(currency.status).toBe(400);
    expect((await errorOf(currency)).code).toBe('INVALID_INPUT');
  });

  it('400: an inviterUma that is not an UMA address', async () => {
    const res = await raw('POST', '/invitations', jsonBody({ inviterUma: 'jane@payments.example.org' }));
    expect([400, 422]).toContain(res.status);
  });
});

describe('claimInvitation', () => {
  itServer('two claims at once: exactly one wins', async () => {
    const invitation = await create({ inviterUma: inviter() });
    const answers = await Promise.all(['$a@x.example', '$b@x.example', '$c@x.example', '$d@x.example'].map((who) => claim(invitation.code, who)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    const winner = (await answers.find((r) => r.status === 200)?.json()) as Invitation;
    expect((await api.GET('/invitations/{invitationCode}', { params: { path: { invitationCode: invitation.code } } })).data?.inviteeUma).toBe(winner.inviteeUma);
  });
});

describe('cancelInvitation', () => {
  itServer('200: CANCELLED; it can no longer be claimed or cancelled', async () => {
    const invitation = await create({ inviterUma: inviter() });
    const res = await cancel(invitation.code);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: invitation.code, status: 'CANCELLED' });
    const claimed = await claim(invitation.code, '$carlos@wallet.example.com');
    expect(claimed.status).toBe(400);
    expect((await errorOf(claimed)).code).toBe('INVITATION_CANCELLED');
    const twice = await cancel(invitation.code);
    expect((await errorOf(twice)).code).toBe('INVITATION_CANCELLED');
  });
});

describe('unknown codes', () => {
  // Three of the target platform's 10 unknown look-ups (one back every 6 minutes): this suite's only ones.
  itServer('404 INVITATION_NOT_FOUND on read, claim and cancel', async () => {
    const unknown = 'fffffe01';
    const answers = [await raw('GET', `/invitations/${unknown}`), await claim(unknown, '$carlos@wallet.example.com'), await cancel(unknown)];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect((await errorOf(answer)).code).toBe('INVITATION_NOT_FOUND');
    }
  });
});
