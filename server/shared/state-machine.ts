// The state machines of the contract: every status enum's `x-state-machine`, emitted by the build
// into generated/state-machines.json. Services check each status change here before asking the
// repository for it, and the repository makes the change conditional on the current status
// (`... WHERE status = :from`), so a concurrent change is noticed instead of overwritten.
import machines from '../../generated/state-machines.json' with { type: 'json' };

export type MachineName = keyof typeof machines;

interface Machine {
  states: string[];
  initial: string[];
  terminal: string[];
  transitions: { from: string; to: string }[];
}

const machine = (name: MachineName): Machine => machines[name] as Machine;

export const canTransition = (name: MachineName, from: string, to: string): boolean =>
  machine(name).transitions.some((t) => t.from === from && t.to === to);

/** A change of status the machine does not allow is a bug of the server, never of the request. */
export function assertTransition(name: MachineName, from: string, to: string): void {
  if (!canTransition(name, from, to)) throw new Error(`${name}: ${from} → ${to} is not a transition of the contract's state machine`);
}

/** Several transitions taken at once (the sandbox runs some checks synchronously). */
export function assertPath(name: MachineName, states: readonly string[]): void {
  for (let i = 1; i < states.length; i++) assertTransition(name, states[i - 1] as string, states[i] as string);
}

export function assertInitial(name: MachineName, state: string): void {
  if (!machine(name).initial.includes(state)) throw new Error(`${name}: ${state} is not an initial state of the contract's state machine`);
}

/** The states the machine allows from `from`, in the spec's order (none from a terminal state). */
export const transitionsFrom = (name: MachineName, from: string): string[] => machine(name).transitions.filter((t) => t.from === from).map((t) => t.to);
