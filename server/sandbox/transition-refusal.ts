// The 409 of a simulation its object's state machine does not allow: it names the object's status and
// the statuses the spec's `x-state-machine` allows from there, so the caller sees what it can do.
import { conflict } from '../shared/errors.ts';
import { canTransition, transitionsFrom, type MachineName } from '../shared/state-machine.ts';

export function transitionNotAllowed(machine: MachineName, from: string, message: string) {
  return conflict('TRANSITION_NOT_ALLOWED', message, { status: from, allowedTransitions: transitionsFrom(machine, from) });
}

/** 409 TRANSITION_NOT_ALLOWED unless `machine` allows `from → to` and `also` holds (a simulation's own limit). */
export function requireTransition(machine: MachineName, from: string, to: string, what: string, also = true): void {
  if (!also || !canTransition(machine, from, to)) throw transitionNotAllowed(machine, from, `${what} is ${from}: it cannot become ${to}.`);
}
