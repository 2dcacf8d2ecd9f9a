// The platform's sandbox clock (GET /sandbox/clock, POST /sandbox/clock/advance): it reads the
// platform's now, moves only forward, brings outcomes due later (a transfer ending in 005 fails 30
// s after it was sent) before the advance answers, and never moves another platform's clock. These
// checks advance the clock of the platform they run on: the runner gives them the second platform
// when there is one, else runs them alone, after the others (runner.ts). Another run at the same
// time may advance it too: what depends on the clock moving by exactly the check's own advances is
// tried again when it moved further (time.ts: undisturbed).
import { CheckFailure, CheckSkipped } from "../check.js";
import { accountPair, balanceOf } from "../fixtures.js";
import { advanceClock, offersClock, undisturbed } from "../time.js";
import { check, enc } from "./define.js";
import { created, getTransaction, transferOut } from "./transfers.js";
const GUIDE = 'sandbox guide: the sandbox clock';
/** Room for the attempts made again after another client moved the clock (time.ts: undisturbed). */
const TIMEOUT = 180_000;
async function clockOf(t, reply, rule = 'getSandboxClock answers 200') {
    const clock = t.expect(await (reply ?? t.call('GET', '/sandbox/clock')), 200, rule);
    t.is.ok(Number.isInteger(clock.offsetMs) && clock.offsetMs >= 0 && !Number.isNaN(Date.parse(clock.now)), `the clock is an instant and a whole, non-negative offset (${GUIDE})`, 'now and offsetMs', () => JSON.stringify(clock));
    return clock;
}
async function requireClock(t) {
    if (!(await offersClock(t)))
        throw new CheckSkipped('the deployment has no sandbox clock (GET /sandbox/clock did not answer 200)');
}
export function clockChecks() {
    const needs = ['state', 'sandbox', 'minutes'];
    return [
        check('sandbox.clock.advance', { operations: ['getSandboxClock', 'advanceSandboxClock'], status: 200, rule: `advancing by seconds grows the offset by exactly that; to an instant, the clock reads it; it never goes back: backwards, by zero or past 366 days is 400 INVALID_INPUT and moves nothing (${GUIDE}; advanceSandboxClock)`, needs: [...needs], tags: ['sandbox', 'clock'], timeoutMs: TIMEOUT }, async (t) => {
            await requireClock(t);
            await undisturbed(t, async (advance) => {
                const before = await clockOf(t);
                const by = await advance(60);
                t.is.equal(by.offsetMs - before.offsetMs, 60_000, `advancing by 60 seconds moves the clock 60 seconds ahead (${GUIDE})`, by.reply);
            });
            // Another client's advance between the read and this one can put the instant in the past (400).
            await undisturbed(t, async () => {
                const to = new Date(Date.parse((await clockOf(t)).now) + 120_000).toISOString();
                const toInstant = await clockOf(t, t.call('POST', '/sandbox/clock/advance', { body: { to } }), `advanceSandboxClock to an instant after now answers 200 (${GUIDE})`);
                t.is.ok(Date.parse(toInstant.now) >= Date.parse(to), `advancing to an instant makes the clock read it (${GUIDE})`, `at least ${to}`, () => toInstant.now);
            });
            await undisturbed(t, async () => {
                const at = await clockOf(t);
                const now = Date.parse(at.now);
                for (const body of [{ seconds: 0 }, { to: new Date(now - 60_000).toISOString() }, { to: new Date(now + 367 * 86_400_000).toISOString() }]) {
                    t.expectError(await t.call('POST', '/sandbox/clock/advance', { body }), 400, 'INVALID_INPUT', `the clock never goes back, and moves forward by 1 second to 366 days (${GUIDE}): ${JSON.stringify(body)}`);
                }
                const after = await clockOf(t);
                t.is.ok(after.offsetMs === at.offsetMs, `a refused advance moves nothing (${GUIDE})`, `the offset as before, ${at.offsetMs} ms`, () => `${after.offsetMs} ms`);
            });
        }),
        check('sandbox.clock.outcome-005', { operations: ['advanceSandboxClock', 'createTransferOut', 'getTransaction'], status: 200, rule: `a transfer-out ending in 005 is still PENDING 20 seconds on and FAILED (BANK_REJECTED), credited back, once the clock is 30 seconds on: when the advance answers, dated at its due time (${GUIDE}; sandbox guide: suffixes)`, needs: [...needs], tags: ['sandbox', 'clock', 'sandbox-outcomes'], timeoutMs: TIMEOUT }, async (t) => {
            await requireClock(t);
            await undisturbed(t, async (advance) => {
                const { internal, external } = await accountPair(t, '005', 10_000);
                const tx = created(t, await transferOut(t, internal.id, external.id, 4_000));
                t.is.equal(tx.status, 'PENDING', 'a transfer-out ending in 005 is PENDING at first');
                await advance(20);
                t.is.equal((await getTransaction(t, tx.id)).status, 'PENDING', 'suffix 005: still PENDING 20 seconds on');
                await advance(11);
                const read = await t.call('GET', `/transactions/${enc(tx.id)}`);
                const failed = t.expect(read, 200, 'getTransaction answers 200');
                t.is.contains(failed, { status: 'FAILED', failureReason: 'BANK_REJECTED' }, 'suffix 005: FAILED once the clock is 30 seconds on, when the advance answers', read);
                const dated = Date.parse(failed.updatedAt) - Date.parse(tx.createdAt);
                t.is.ok(dated >= 30_000 && dated < 31_000, `the outcome is dated when it was due, not when the advance ended (${GUIDE})`, '30 s after it was sent', () => `${dated} ms`);
                t.is.equal(await balanceOf(t, internal.id), 10_000, 'a failed transfer-out gives the amount back');
            });
        }),
        check('sandbox.clock.isolation', { operations: ['getSandboxClock', 'advanceSandboxClock'], status: 200, rule: `advancing one platform's clock never moves another's (${GUIDE})`, needs: [...needs, 'second-platform'], tags: ['sandbox', 'clock', 'isolation'] }, async (t) => {
            await requireClock(t);
            const other = { as: { basic: t.otherPlatform ?? { clientId: '', clientSecret: '' } } };
            // Runs of the kit advance only the clock of the platform this check runs on (the second one,
            // runner.ts); should another client advance the other's, a moved clock is looked at again.
            const moved = [];
            for (let i = 0; i < 3; i++) {
                const theirs = await clockOf(t, t.call('GET', '/sandbox/clock', other));
                await advanceClock(t, 3_600);
                const after = await clockOf(t, t.call('GET', '/sandbox/clock', other));
                if (after.offsetMs === theirs.offsetMs)
                    return;
                moved.push(after.offsetMs - theirs.offsetMs);
            }
            throw new CheckFailure(`another platform's clock did not move (${GUIDE})`, 'its offset as before each advance', `moved by ${moved.map((ms) => `${ms / 1000} s`).join(', ')} in 3 attempts`);
        }),
    ];
}
