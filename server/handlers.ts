// The operationId → handler map. Its type names every operation of the spec, so `npm run typecheck`
// fails when the spec gains an operation without a handler here. `notImplemented` answers 501.
import { notImplemented, type OperationHandlers } from './http/operations.ts';
import { platformHandlers } from './platform/platform.handlers.ts';
import { tokenHandlers } from './tokens/tokens.handlers.ts';
import { internalAccountHandlers } from './internal-accounts/internal-accounts.handlers.ts';
import { externalAccountHandlers } from './external-accounts/external-accounts.handlers.ts';
import { sandboxFundHandlers } from './sandbox/sandbox-fund.handlers.ts';
import { webhookHandlers } from './webhooks/webhooks.handlers.ts';
import { customerHandlers } from './customers/customers.handlers.ts';
import { beneficialOwnerHandlers } from './beneficial-owners/beneficial-owners.handlers.ts';
import { documentHandlers } from './documents/documents.handlers.ts';
import { verificationHandlers } from './verifications/verifications.handlers.ts';

export const handlers: OperationHandlers = {
  ...platformHandlers,
  ...tokenHandlers,
  ...webhookHandlers,
  ...customerHandlers,
  ...beneficialOwnerHandlers,
  ...documentHandlers,
  ...verificationHandlers,
  ...internalAccountHandlers,
  ...externalAccountHandlers,
  createTransferIn: notImplemented,
  createTransferOut: notImplemented,
  lookupUmaReceiver: notImplemented,
  lookupExternalAccountReceiver: notImplemented,
  createQuote: notImplemented,
  getQuote: notImplemented,
  executeQuote: notImplemented,
  listTransactions: notImplemented,
  getTransaction: notImplemented,
  approveTransaction: notImplemented,
  rejectTransaction: notImplemented,
  cancelTransaction: notImplemented,
  listExchangeRates: notImplemented,
  listDiscoveries: notImplemented,
  createInvitation: notImplemented,
  getInvitation: notImplemented,
  claimInvitation: notImplemented,
  cancelInvitation: notImplemented,
  createAuthCredential: notImplemented,
  listAuthCredentials: notImplemented,
  revokeAuthCredential: notImplemented,
  challengeAuthCredential: notImplemented,
  verifyAuthCredential: notImplemented,
  listAuthSessions: notImplemented,
  revokeAuthSession: notImplemented,
  createAgent: notImplemented,
  listAgents: notImplemented,
  getAgent: notImplemented,
  updateAgent: notImplemented,
  deleteAgent: notImplemented,
  updateAgentPolicy: notImplemented,
  createAgentDeviceCode: notImplemented,
  redeemAgentDeviceCode: notImplemented,
  listAgentActions: notImplemented,
  getAgentAction: notImplemented,
  approveAgentAction: notImplemented,
  rejectAgentAction: notImplemented,
  getCurrentAgent: notImplemented,
  listCurrentAgentInternalAccounts: notImplemented,
  listCurrentAgentExternalAccounts: notImplemented,
  createCurrentAgentExternalAccount: notImplemented,
  createCurrentAgentQuote: notImplemented,
  getCurrentAgentQuote: notImplemented,
  executeCurrentAgentQuote: notImplemented,
  createCurrentAgentTransferIn: notImplemented,
  createCurrentAgentTransferOut: notImplemented,
  listCurrentAgentTransactions: notImplemented,
  getCurrentAgentTransaction: notImplemented,
  listCurrentAgentActions: notImplemented,
  getCurrentAgentAction: notImplemented,
  ...sandboxFundHandlers,
  sendSandboxPayment: notImplemented,
  receiveSandboxUmaPayment: notImplemented,
};
