// Bringing time forward for the checks of sandbox outcomes due minutes later: a deployment that
// offers the platform's sandbox clock (GET /sandbox/clock answers 200) has it advanced, and the
// outcome is there when the advance answers; one without it is waited on, as before (--wait-minutes).
// Advancing moves the clock of a whole platform: the runner runs these checks on the second
// platform when it has one (no other check's object ages under them), else alone, after the others.
// Another run at the same time may advance the same clock: a check that fails while the clock moved
// further than its own advances add up to is tried again (`undisturbed`).
import { CheckFailure } from "./failure.js";
const offered = new WeakMap();
/** Whether the deployment offers the sandbox clock to the world's token: asked once per run. */
export function offersClock(t) {
    let answer = offered.get(t);
    if (answer === undefined) {
        answer = t.http.send('GET', '/sandbox/clock').then((reply) => reply.status === 200 && typeof reply.body?.now === 'string');
        offered.set(t, answer);
    }
    return answer;
}
/** Advances the platform's sandbox clock by `seconds`; the clock as the advance answers it, and the answer. */
export async function advanceClock(t, seconds) {
    const reply = await t.call('POST', '/sandbox/clock/advance', { body: { seconds } });
    return { ...t.expect(reply, 200, 'advanceSandboxClock answers 200 once what came due has happened (sandbox guide)'), reply };
}
const offsetOf = async (t) => t.expect(await t.call('GET', '/sandbox/clock'), 200, 'getSandboxClock answers 200').offsetMs;
/**
 * Runs `attempt`, which moves the clock only through the `advance` it is given, until it passes or
 * fails undisturbed. A failure while the clock moved further than the attempt's own advances add up
 * to is another client's doing (another run of the kit on the same platform) and the attempt is
 * made again, up to `times` in all, after a random pause that grows (two runs retrying in step
 * would disturb each other every time); a failure while it moved as far or less is the
 * implementation's, at once (so one that ignores the clock, or turns it back, still fails).
 */
export async function undisturbed(t, attempt, times = 6) {
    const moved = [];
    for (let i = 1;; i++) {
        const before = await offsetOf(t);
        let own = 0;
        const advance = (seconds) => {
            own += seconds * 1000;
            return advanceClock(t, seconds);
        };
        try {
            await attempt(advance);
            return;
        }
        catch (error) {
            if (!(error instanceof CheckFailure))
                throw error;
            const extra = (await offsetOf(t)) - before - own;
            if (extra <= 0)
                throw error;
            moved.push(extra);
            if (i >= times) {
                const by = moved.map((ms) => `${ms / 1000} s`).join(', ');
                throw new CheckFailure(error.rule, error.expected, `${error.actual} (in each of ${times} attempts the clock moved further than the check advanced it, by ${by}: another client advanced it at the same time, or the implementation moves it more than asked)`, error.reply);
            }
            await new Promise((r) => setTimeout(r, (500 + Math.random() * 1_500) * i));
        }
    }
}
