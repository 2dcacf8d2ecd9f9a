// The state machines the server checks its status changes against are the spec's own: the build
// copies every status enum's `x-state-machine` into generated/state-machines.json, and
// shared/state-machine.ts answers from that copy only.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertInitial, assertPath, assertTransition, canTransition, type MachineName } from '../../server/shared/state-machine.ts';
import { spec } from '../support/spec.ts';

type Machine = { initial: string[]; terminal: string[]; transitions: { from: string; to: string }[] };
const generated = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'generated', 'state-machines.json'), 'utf8')) as Record<string, Machine & { states: string[] }>;
const inSpec = Object.entries(spec.components.schemas ?? {}).filter(([, schema]) => schema['x-state-machine'] !== undefined);

describe('state machines', () => {
  it('generated/state-machines.json holds every status enum of the spec, as the spec states it', () => {
    expect(inSpec.length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(generated).sort()).toEqual(inSpec.map(([name]) => name).sort());
    for (const [name, schema] of inSpec) {
      const machine = schema['x-state-machine'] as Machine;
      expect(generated[name]?.states, name).toEqual(schema.enum);
      expect(generated[name]?.initial, name).toEqual(machine.initial);
      expect(generated[name]?.terminal, name).toEqual(machine.terminal);
      expect(generated[name]?.transitions, name).toEqual(machine.transitions.map(({ from, to }) => ({ from, to })));
    }
  });

  it.each(inSpec.map(([name]) => name))('%s: every transition of the spec is allowed, and nothing else', (name) => {
    const machine = generated[name] as Machine & { states: string[] };
    for (const from of machine.states) {
      for (const to of machine.states) {
        const listed = machine.transitions.some((t) => t.from === from && t.to === to);
        expect(canTransition(name as MachineName, from, to), `${from} → ${to}`).toBe(listed);
        if (!listed) expect(() => assertTransition(name as MachineName, from, to)).toThrow(`${name}: ${from} → ${to} is not a transition`);
      }
    }
  });

  it('checks a path of several transitions and the initial states', () => {
    expect(() => assertPath('VerificationStatus', ['READY_FOR_VERIFICATION', 'IN_PROGRESS', 'APPROVED'])).not.toThrow();
    expect(() => assertPath('VerificationStatus', ['READY_FOR_VERIFICATION', 'APPROVED'])).toThrow('READY_FOR_VERIFICATION → APPROVED');
    expect(() => assertPath('InternalAccountStatus', ['PENDING', 'ACTIVE'])).not.toThrow();
    expect(() => assertInitial('ExternalAccountStatus', 'ACTIVE')).not.toThrow();
    expect(() => assertInitial('ExternalAccountStatus', 'INACTIVE')).toThrow('not an initial state');
  });
});
