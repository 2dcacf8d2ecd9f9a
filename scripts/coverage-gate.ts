// The coverage gate over what the contract suite observed (.tmp/observed-statuses-<target>.log):
// every operation implemented and reached by a test, every documented status produced or excepted
// in contract-tests/coverage/status-exceptions.ts. Prints the operation × status matrix.
//   tsx scripts/coverage-gate.ts [--targets pglite,postgres]   (default: every server target with a log)
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { coverageGate } from '../contract-tests/coverage/coverage-gate.ts';
import { statusExceptions } from '../contract-tests/coverage/status-exceptions.ts';
import { observedStatusesFile } from '../contract-tests/support/observed-statuses.ts';
import { operations } from '../contract-tests/support/spec.ts';
import { handlers } from '../server/operations.ts';
import { notImplemented } from '../server/context/handler-types.ts';

const { values } = parseArgs({ options: { targets: { type: 'string' } } });
const targets = (values.targets ?? ['pglite', 'postgres'].filter((t) => existsSync(observedStatusesFile(t))).join(',')).split(',').filter(Boolean);
if (targets.length === 0) {
  console.error('coverage gate: no observed statuses; run the contract suite first (npm run test:contract:pglite)');
  process.exit(1);
}
const observed = new Set(targets.flatMap((t) => (existsSync(observedStatusesFile(t)) ? readFileSync(observedStatusesFile(t), 'utf8').split('\n').filter(Boolean) : [])));
const report = coverageGate({
  operations,
  implemented: (id) => id in handlers && handlers[id as keyof typeof handlers] !== notImplemented,
  observed,
  exceptions: statusExceptions,
  targets,
});
console.log(report.matrix);
console.log(report.summary);
if (report.problems.length > 0) {
  console.error(`  ${report.problems.join('\n  ')}`);
  process.exit(1);
}
