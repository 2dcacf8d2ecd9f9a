// Every check of the kit, in the order they are listed and reported.
import type { Check } from '../check.ts';
import { accountChecks } from './accounts.ts';
import { agentChecks } from './agents.ts';
import { clockChecks } from './clock.ts';
import { customerDataChecks } from './customer-data.ts';
import { customerChecks } from './customers.ts';
import { errorChecks } from './errors.ts';
import { everyOperationChecks } from './every-operation.ts';
import { idempotencyChecks } from './idempotency.ts';
import { invitationChecks } from './invitations.ts';
import { isolationChecks } from './isolation.ts';
import { paginationChecks } from './pagination.ts';
import { platformChecks } from './platform.ts';
import { quoteChecks } from './quotes.ts';
import { simulationChecks } from './simulations.ts';
import { transactionChecks } from './transactions.ts';
import { transferChecks } from './transfers.ts';
import { walletChecks } from './wallet.ts';
import { webhookChecks } from './webhooks.ts';

export function allChecks(): Check[] {
  const checks = [
    ...platformChecks(),
    ...customerChecks(),
    ...customerDataChecks(),
    ...accountChecks(),
    ...transferChecks(),
    ...transactionChecks(),
    ...quoteChecks(),
    ...clockChecks(),
    ...walletChecks(),
    ...agentChecks(),
    ...invitationChecks(),
    ...webhookChecks(),
    ...simulationChecks(),
    ...idempotencyChecks(),
    ...paginationChecks(),
    ...isolationChecks(),
    ...errorChecks(),
    ...everyOperationChecks(),
  ];
  const ids = new Set<string>();
  for (const check of checks) {
    if (ids.has(check.id)) throw new Error(`conformance: two checks have the id ${check.id}`);
    ids.add(check.id);
  }
  return checks;
}
