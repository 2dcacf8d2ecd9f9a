// The platform's sandbox clock (GET /sandbox/clock, POST /sandbox/clock/advance): it reads the
// platform's now, moves only forward, brings outcomes due later (a transfer ending in 005 fails 30
// s after it was sent) before the advance answers, and never moves another platform's clock. These
// checks advance the kit's platform's clock, so the runner runs them alone, after the others.
import { CheckSkipped, type Check } from '../check.ts';
import { accountPair, balanceOf } from '../fixtures.ts';
import type { Reply } from '../http.ts';
import { offersClock } from '../time.ts';
import type { World } from '../world.ts';
import { check } from './define.ts';
import { created, getTransaction, transferOut } from './transfers.ts';

const GUIDE = 'sandbox guide: the sandbox clock';
type Clock = { now: string; offsetMs: number };

async function clockOf(t: World, reply?: Promise<Reply>): Promise<Clock> {
  const clock = t.expect<Clock>(await (reply ?? t.call('GET', '/sandbox/clock')), 200, 'getSandboxClock answers 200');
  t.is.ok(Number.isInteger(clock.offsetMs) && clock.offsetMs >= 0 && !Number.isNaN(Date.parse(clock.now)), `the clock is an instant and a whole, non-negative offset (${GUIDE})`, 'now and offsetMs', () => JSON.stringify(clock));
  return clock;
}

async function requireClock(t: World): Promise<void> {
  if (!(await offersClock(t))) throw new CheckSkipped('the deployment has no sandbox clock (GET /sandbox/clock did not answer 200)');
}

export function clockChecks(): Check[] {
  const needs = ['state', 'sandbox', 'minutes'] as const;
  return [
    check('sandbox.clock.advance', { operations: ['getSandboxClock', 'advanceSandboxClock'], status: 200, rule: `advancing by seconds grows the offset by exactly that; to an instant, the clock reads it; it never goes back: backwards, by zero or past 366 days is 400 INVALID_INPUT and moves nothing (${GUIDE}; advanceSandboxClock)`, needs: [...needs], tags: ['sandbox', 'clock'] }, async (t) => {
      await requireClock(t);
      const before = await clockOf(t);
      const by = await clockOf(t, t.call('POST', '/sandbox/clock/advance', { body: { seconds: 60 } }));
      t.is.equal(by.offsetMs - before.offsetMs, 60_000, `advancing by 60 seconds moves the clock 60 seconds ahead (${GUIDE})`);
      const to = new Date(Date.parse(by.now) + 120_000).toISOString();
      const toInstant = await clockOf(t, t.call('POST', '/sandbox/clock/advance', { body: { to } }));
      t.is.ok(Date.parse(toInstant.now) >= Date.parse(to), `advancing to an instant makes the clock read it (${GUIDE})`, `at least ${to}`, () => toInstant.now);
      const now = Date.parse(toInstant.now);
      for (const body of [{ seconds: 0 }, { to: new Date(now - 60_000).toISOString() }, { to: new Date(now + 367 * 86_400_000).toISOString() }]) {
        t.expectError(await t.call('POST', '/sandbox/clock/advance', { body }), 400, 'INVALID_INPUT', `the clock never goes back, and moves forward by 1 second to 366 days (${GUIDE}): ${JSON.stringify(body)}`);
      }
      t.is.ok((await clockOf(t)).offsetMs < toInstant.offsetMs + 60_000, `a refused advance moves nothing (${GUIDE})`, 'the offset as before', () => 'moved');
    }),

    check('sandbox.clock.outcome-005', { operations: ['advanceSandboxClock', 'createTransferOut', 'getTransaction'], status: 200, rule: `a transfer-out ending in 005 is still PENDING 20 seconds on and FAILED (BANK_REJECTED), credited back, once the clock is 30 seconds on: when the advance answers, dated at its due time (${GUIDE}; sandbox guide: suffixes)`, needs: [...needs], tags: ['sandbox', 'clock', 'sandbox-outcomes'] }, async (t) => {
      await requireClock(t);
      const { internal, external } = await accountPair(t, '005', 10_000);
      const tx = created(t, await transferOut(t, internal.id, external.id, 4_000));
      t.is.equal(tx.status, 'PENDING', 'a transfer-out ending in 005 is PENDING at first');
      t.expect(await t.call('POST', '/sandbox/clock/advance', { body: { seconds: 20 } }), 200, 'advanceSandboxClock answers 200');
      t.is.equal((await getTransaction(t, tx.id)).status, 'PENDING', 'suffix 005: still PENDING 20 seconds on');
      t.expect(await t.call('POST', '/sandbox/clock/advance', { body: { seconds: 11 } }), 200, 'advanceSandboxClock answers 200');
      const failed = await getTransaction(t, tx.id);
      t.is.contains(failed, { status: 'FAILED', failureReason: 'BANK_REJECTED' }, 'suffix 005: FAILED once the clock is 30 seconds on, when the advance answers');
      const dated = Date.parse(failed.updatedAt) - Date.parse(tx.createdAt);
      t.is.ok(dated >= 30_000 && dated < 31_000, `the outcome is dated when it was due, not when the advance ended (${GUIDE})`, '30 s after it was sent', () => `${dated} ms`);
      t.is.equal(await balanceOf(t, internal.id), 10_000, 'a failed transfer-out gives the amount back');
    }),

    check('sandbox.clock.isolation', { operations: ['getSandboxClock', 'advanceSandboxClock'], status: 200, rule: `advancing one platform's clock never moves another's (${GUIDE})`, needs: [...needs, 'second-platform'], tags: ['sandbox', 'clock', 'isolation'] }, async (t) => {
      await requireClock(t);
      const other = { as: { basic: t.otherPlatform ?? { clientId: '', clientSecret: '' } } };
      const theirs = await clockOf(t, t.call('GET', '/sandbox/clock', other));
      t.expect(await t.call('POST', '/sandbox/clock/advance', { body: { seconds: 3_600 } }), 200, 'advanceSandboxClock answers 200');
      const after = await clockOf(t, t.call('GET', '/sandbox/clock', other));
      t.is.equal(after.offsetMs, theirs.offsetMs, `another platform's clock did not move (${GUIDE})`);
    }),
  ];
}
