// Bringing time forward for the checks of sandbox outcomes due minutes later: a deployment that
// offers the platform's sandbox clock (GET /sandbox/clock answers 200) has it advanced, and the
// outcome is there when the advance answers; one without it is waited on, as before (--wait-minutes).
// Advancing moves the clock of the kit's whole platform, so the runner runs these checks alone,
// after the others (runner.ts): a quote of another check must not expire under it.
import type { World } from './world.ts';

const offered = new WeakMap<World, Promise<boolean>>();

/** Whether the deployment offers the sandbox clock to the kit's token: asked once per run. */
export function offersClock(t: World): Promise<boolean> {
  let answer = offered.get(t);
  if (answer === undefined) {
    answer = t.http.send('GET', '/sandbox/clock').then((reply) => reply.status === 200 && typeof (reply.body as { now?: unknown } | undefined)?.now === 'string');
    offered.set(t, answer);
  }
  return answer;
}

/**
 * Brings the platform's time `seconds` forward: advances its sandbox clock when the deployment
 * offers it (true: what came due has happened when this resolves), or does nothing (false: the
 * caller waits on real time, as a deployment without the clock needs).
 */
export async function bringTimeForward(t: World, seconds: number): Promise<boolean> {
  if (!(await offersClock(t))) return false;
  t.expect(await t.call('POST', '/sandbox/clock/advance', { body: { seconds } }), 200, 'advanceSandboxClock answers 200 once what came due has happened (sandbox guide)');
  return true;
}
