// Every check of the kit, in the order they are listed and reported.
import type { Check } from '../check.ts';
import { customerChecks } from './customers.ts';
import { everyOperationChecks } from './every-operation.ts';
import { paginationChecks } from './pagination.ts';
import { quoteChecks } from './quotes.ts';
import { transactionChecks } from './transactions.ts';
import { transferChecks } from './transfers.ts';

export function allChecks(): Check[] {
  const checks = [...customerChecks(), ...transferChecks(), ...transactionChecks(), ...quoteChecks(), ...paginationChecks(), ...everyOperationChecks()];
  const ids = new Set<string>();
  for (const check of checks) {
    if (ids.has(check.id)) throw new Error(`conformance: two checks have the id ${check.id}`);
    ids.add(check.id);
  }
  return checks;
}
