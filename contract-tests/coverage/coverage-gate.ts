// The coverage gate: every operation has a handler, a test that reaches its success, and every
// status it documents produced by some test, unless status-exceptions.ts says why not.
import type { SpecOperation } from '../support/spec.ts';
import type { StatusException } from './status-exceptions.ts';

export interface GateInput {
  operations: SpecOperation[];
  /** Whether the server has a real handler for the operation (not the 501 stub). */
  implemented: (operationId: string) => boolean;
  /** `<operationId> <status>` pairs the suite produced. */
  observed: ReadonlySet<string>;
  exceptions: StatusException[];
  /** The targets the observations come from; exceptions limited to other targets do not apply. */
  targets: string[];
}

export interface GateReport {
  problems: string[];
  /** Operation × status: `+` produced, `e` excepted, `-` missing. */
  matrix: string;
  summary: string;
}

/** The exception covering a pair, if one applies to these targets. */
export function exceptionFor(exceptions: StatusException[], operationId: string, status: string, targets: string[]): StatusException | undefined {
  return exceptions.find((e) => (e.operation === '*' || e.operation === operationId) && e.status === status && (e.unlessTarget === undefined || !targets.includes(e.unlessTarget)));
}

export function coverageGate(input: GateInput): GateReport {
  const problems: string[] = [];
  const statuses = [...new Set(input.operations.flatMap((o) => Object.keys(o.operation.responses)))].sort();
  const rows: string[] = [];
  let documented = 0;
  let produced = 0;
  let excepted = 0;
  const used = new Set<StatusException>();
  for (const o of input.operations) {
    const id = o.operation.operationId;
    if (!input.implemented(id)) problems.push(`${id}: no handler (answers 501)`);
    const own = Object.keys(o.operation.responses);
    if (!own.some((s) => s.startsWith('2') && input.observed.has(`${id} ${s}`))) problems.push(`${id}: no test reaches a success (${own.filter((s) => s.startsWith('2')).join(', ')})`);
    const cells = statuses.map((s) => {
      if (!own.includes(s)) return ' ';
      documented++;
      if (input.observed.has(`${id} ${s}`)) return (produced++, '+');
      const exception = exceptionFor(input.exceptions, id, s, input.targets);
      if (exception !== undefined) return (excepted++, used.add(exception), 'e');
      problems.push(`${id} ${s}: documented, never produced by a test`);
      return '-';
    });
    rows.push(`${id.padEnd(36)} ${cells.map((c) => c.padEnd(4)).join('')}`);
  }
  for (const e of input.exceptions) if (!used.has(e) && (e.unlessTarget === undefined || !input.targets.includes(e.unlessTarget))) problems.push(`exception ${e.operation} ${e.status} no longer needed: a test produces it, or the status is gone (${e.reason})`);
  const matrix = [`${'operation'.padEnd(36)} ${statuses.map((s) => s.padEnd(4)).join('')}`, ...rows].join('\n');
  const summary = `coverage gate (${input.targets.join(' + ')}): ${input.operations.length} operations, ${documented} documented statuses: ${produced} produced by tests, ${excepted} excepted (status-exceptions.ts), ${documented - produced - excepted} missing; ${problems.length} problems`;
  return { problems, matrix, summary };
}
