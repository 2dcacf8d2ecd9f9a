// An invitation code has 8 hex digits (32 bits), and any platform reads and claims an invitation by
// its code alone: guessing must not pay. Unknown codes are limited per platform (it is the caller
// of these operations, whatever its tokens or addresses): after 10, the platform gets one attempt
// back every 6 minutes, and until then every read, claim or cancel by code, even of a valid code,
// answers 429 RATE_LIMITED with Retry-After. Another platform is never slowed. On a server of this
// file's own, whose clock it moves.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { checkedClientOf } from '../support/factories.ts';
import { ownServer } from '../support/own-server.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { advanceClock } from '../support/server-process.ts';

const root = resolve(import.meta.dirname, '..', '..');
const MINUTE = 60_000;

describe.skipIf(target === 'prism')('guessing invitation codes', () => {
  const own = ownServer({ onTargetDatabase: true });
  const byCode = (code: string, action: 'read' | 'claim' | 'cancel', auth = basicAuth(own.token)) =>
    fetch(`${own.server.baseUrl}/invitations/${code}${action === 'read' ? '' : `/${action}`}`, {
      method: action === 'read' ? 'GET' : 'POST',
      headers: { Authorization: auth, 'content-type': 'application/json' },
      ...(action === 'claim' ? { body: JSON.stringify({ inviteeUma: '$carlos@wallet.example.com' }) } : {}),
    });
  // Codes are random: these are unknown (a collision would only make one answer 200).
  const unknownCode = (i: number) => `ffff${String(i).padStart(4, '0')}`;
  const newInvitation = async () => (await own.via.POST('/invitations', { body: { inviterUma: '$jane@payments.example.org' } })).data?.code ?? '';

  it('10 unknown codes answer 404; then even a valid code waits Retry-After, minutes at most, and is then served', async () => {
    const valid = await newInvitation();
    const actions = ['read', 'claim', 'cancel'] as const;
    // Concurrent guesses, through all three operations: only 10 are judged.
    const statuses = (await Promise.all(Array.from({ length: 15 }, (_, i) => byCode(unknownCode(i), actions[i % 3] ?? 'read')))).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);

    for (const action of actions) {
      const refused = await byCode(valid, action);
      expect(refused.status, action).toBe(429);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(6 * 60);
    }
    await advanceClock(own.server.origin, 6 * MINUTE);
    // A valid code costs no attempt: it is read, then claimed; the next unknown code uses the attempt.
    expect((await byCode(valid, 'read')).status).toBe(200);
    expect((await byCode(valid, 'claim')).status).toBe(200);
    expect((await byCode(unknownCode(99), 'read')).status).toBe(404);
    expect((await byCode(unknownCode(98), 'read')).status).toBe(429);
    // Creating invitations is not a lookup: never slowed.
    expect(await newInvitation()).toMatch(/^[0-9a-f]{8}$/);
  });

  it.skipIf(target !== 'postgres')('another platform is not slowed by one that guesses', async () => {
    await advanceClock(own.server.origin, 60 * MINUTE); // every attempt back
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/create-platform.ts', 'Guessing platform'], {
      cwd: root,
      env: { ...process.env, ...own.env, PGLITE_DATA_DIR: '' },
      encoding: 'utf8',
    });
    const guesser = basicAuth({ clientId: /clientId:\s+(\S+)/.exec(stdout)?.[1] ?? '', clientSecret: /clientSecret:\s+(\S+)/.exec(stdout)?.[1] ?? '' });
    const valid = await newInvitation();
    for (let i = 0; i < 10; i++) expect((await byCode(unknownCode(200 + i), 'read', guesser)).status).toBe(404);
    expect((await byCode(valid, 'read', guesser)).status).toBe(429);
    // Any other platform (here the invitation's own) is served.
    expect((await checkedClientOf(own.server.baseUrl, own.token).GET('/invitations/{invitationCode}', { params: { path: { invitationCode: valid } } })).response.status).toBe(200);
    expect((await byCode(valid, 'claim')).status).toBe(200);
  });
});
