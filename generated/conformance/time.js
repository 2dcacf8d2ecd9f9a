const offered = new WeakMap();
/** Whether the deployment offers the sandbox clock to the kit's token: asked once per run. */
export function offersClock(t) {
    let answer = offered.get(t);
    if (answer === undefined) {
        answer = t.http.send('GET', '/sandbox/clock').then((reply) => reply.status === 200 && typeof reply.body?.now === 'string');
        offered.set(t, answer);
    }
    return answer;
}
/**
 * Brings the platform's time `seconds` forward: advances its sandbox clock when the deployment
 * offers it (true: what came due has happened when this resolves), or does nothing (false: the
 * caller waits on real time, as a deployment without the clock needs).
 */
export async function bringTimeForward(t, seconds) {
    if (!(await offersClock(t)))
        return false;
    t.expect(await t.call('POST', '/sandbox/clock/advance', { body: { seconds } }), 200, 'advanceSandboxClock answers 200 once what came due has happened (sandbox guide)');
    return true;
}
