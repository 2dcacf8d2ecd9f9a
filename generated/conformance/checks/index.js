import { accountChecks } from "./accounts.js";
import { agentChecks } from "./agents.js";
import { clockChecks } from "./clock.js";
import { customerDataChecks } from "./customer-data.js";
import { customerChecks } from "./customers.js";
import { errorChecks } from "./errors.js";
import { everyOperationChecks } from "./every-operation.js";
import { idempotencyChecks } from "./idempotency.js";
import { invitationChecks } from "./invitations.js";
import { isolationChecks } from "./isolation.js";
import { paginationChecks } from "./pagination.js";
import { platformChecks } from "./platform.js";
import { quoteChecks } from "./quotes.js";
import { simulationChecks } from "./simulations.js";
import { transactionChecks } from "./transactions.js";
import { transferChecks } from "./transfers.js";
import { walletChecks } from "./wallet.js";
import { webhookChecks } from "./webhooks.js";
export function allChecks() {
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
    const ids = new Set();
    for (const check of checks) {
        if (ids.has(check.id))
            throw new Error(`conformance: two checks have the id ${check.id}`);
        ids.add(check.id);
    }
    return checks;
}
