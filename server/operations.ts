// The operationId → handler map, joined from the areas. Its type names every operation of the
// spec, so `npm run typecheck` fails when the spec gains an operation without a handler here; two
// areas claiming one operation fail at start-up. An area marks an operation it does not serve yet
// with `notImplemented` (501).
import { agentOperationHandlers } from './agents/agent-operations.handlers.ts';
import { agentHandlers } from './agents/agents.handlers.ts';
import { transactionApprovalHandlers } from './agents/transaction-approvals.handlers.ts';
import { sandboxClockHandlers } from './clock/clock.handlers.ts';
import { beneficialOwnerHandlers } from './beneficial-owners/beneficial-owners.handlers.ts';
import { customerHandlers } from './customers/customers.handlers.ts';
import { discoveryHandlers } from './discoveries/discoveries.handlers.ts';
import { documentHandlers } from './documents/documents.handlers.ts';
import { exchangeRateHandlers } from './exchange-rates/exchange-rates.handlers.ts';
import { externalAccountHandlers } from './external-accounts/external-accounts.handlers.ts';
import { invitationHandlers } from './invitations/invitations.handlers.ts';
import { joinAreas, type OperationHandlers } from './context/handler-types.ts';
import { internalAccountHandlers } from './internal-accounts/internal-accounts.handlers.ts';
import { platformHandlers } from './platform/platform.handlers.ts';
import { quoteHandlers } from './quotes/quotes.handlers.ts';
import { receiverHandlers } from './receiver/receiver.handlers.ts';
import { sandboxHandlers } from './sandbox/sandbox.handlers.ts';
import { simulationHandlers } from './sandbox/simulations.handlers.ts';
import { tokenHandlers } from './tokens/tokens.handlers.ts';
import { transactionHandlers } from './transactions/transactions.handlers.ts';
import { verificationHandlers } from './verifications/verifications.handlers.ts';
import { walletAuthHandlers } from './wallet-auth/wallet-auth.handlers.ts';
import { webhookHandlers } from './webhooks/webhooks.handlers.ts';

export const handlers: OperationHandlers = joinAreas(
  platformHandlers,
  tokenHandlers,
  webhookHandlers,
  customerHandlers,
  beneficialOwnerHandlers,
  documentHandlers,
  verificationHandlers,
  internalAccountHandlers,
  externalAccountHandlers,
  sandboxHandlers,
  simulationHandlers,
  sandboxClockHandlers,
  transactionHandlers,
  transactionApprovalHandlers,
  receiverHandlers,
  exchangeRateHandlers,
  discoveryHandlers,
  quoteHandlers,
  invitationHandlers,
  walletAuthHandlers,
  agentHandlers,
  agentOperationHandlers,
);
