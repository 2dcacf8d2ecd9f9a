// Every response the contract suite checks is recorded as `<operationId> <status>`, so the run can
// report which documented statuses of the implemented operations no test ever produced.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/context/handler-types.ts';
import { operations } from './spec.ts';

const root = resolve(import.meta.dirname, '..', '..');
export const observedStatusesFile = (target: string): string => resolve(root, '.tmp', `observed-statuses-${target}.log`);

export function resetObservedStatuses(target: string): void {
  rmSync(observedStatusesFile(target), { force: true });
  // .tmp/ is not in git: a fresh clone running one target alone has none yet.
  mkdirSync(dirname(observedStatusesFile(target)), { recursive: true });
}

export function statusCoverage(target: string): { documented: number; observed: number; missing: string[] } {
  const file = observedStatusesFile(target);
  const seen = new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  const implemented = operations.filter((o) => handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented);
  const pairs = implemented.flatMap((o) => Object.keys(o.operation.responses).map((status) => `${o.operation.operationId} ${status}`));
  const missing = pairs.filter((p) => !seen.has(p));
  return { documented: pairs.length, observed: pairs.length - missing.length, missing };
}
