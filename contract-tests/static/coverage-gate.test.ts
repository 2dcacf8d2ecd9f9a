// The coverage gate's own test: it fails on a stubbed operation, an operation no test reaches, a
// documented status nobody produced and a stale exception, and passes a complete run.
import { describe, expect, it } from 'vitest';
import { coverageGate } from '../coverage/coverage-gate.ts';
import type { StatusException } from '../coverage/status-exceptions.ts';
import { operations } from '../support/spec.ts';

const ops = operations.filter((o) => ['getToken', 'deleteToken'].includes(o.operation.operationId));
const everything = new Set(ops.flatMap((o) => Object.keys(o.operation.responses).map((s) => `${o.operation.operationId} ${s}`)));
const without = (...pairs: string[]) => new Set([...everything].filter((p) => !pairs.includes(p)));
const none: StatusException[] = [];

describe('the coverage gate fails what it exists to fail', () => {
  it('passes a run that produced every documented status of implemented operations', () => {
    const report = coverageGate({ operations: ops, implemented: () => true, observed: everything, exceptions: none, targets: ['pglite'] });
    expect(report.problems).toEqual([]);
    expect(report.matrix).toMatch(/^getToken +\+ /m);
  });

  it('fails a stub, an operation never reached, a status never produced', () => {
    const report = coverageGate({
      operations: ops,
      implemented: (id) => id !== 'deleteToken',
      observed: without('getToken 200', 'getToken 404'),
      exceptions: none,
      targets: ['pglite'],
    });
    expect(report.problems).toEqual(['getToken: no test reaches a success (200)', 'getToken 200: documented, never produced by a test', 'getToken 404: documented, never produced by a test', 'deleteToken: no handler (answers 501)']);
  });

  it('an exception excuses a status, only on the targets it names, and fails once it is no longer needed', () => {
    const exceptions: StatusException[] = [{ operation: 'getToken', status: '404', reason: 'test', unlessTarget: 'postgres' }];
    expect(coverageGate({ operations: ops, implemented: () => true, observed: without('getToken 404'), exceptions, targets: ['pglite'] }).problems).toEqual([]);
    expect(coverageGate({ operations: ops, implemented: () => true, observed: without('getToken 404'), exceptions, targets: ['pglite', 'postgres'] }).problems).toEqual(['getToken 404: documented, never produced by a test']);
    expect(coverageGate({ operations: ops, implemented: () => true, observed: everything, exceptions, targets: ['pglite'] }).problems).toEqual([expect.stringMatching(/^exception getToken 404 no longer needed/)]);
  });
});
