// Sandbox simulations: outcomes that come from outside the API (a rail, a reviewer, a name check, a
// webhook of any type), forced on demand on the platform's own objects.
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { simulateBeneficiaryVerification, simulateKycOutcome, simulateVerificationOutcome } from './identity-simulations.ts';
import { simulateCompletion, simulateFailure, simulateIncomingPayment, simulateReturn } from './payment-simulations.ts';
import { triggerWebhook } from './webhook-trigger.ts';

export const simulationHandlers: AreaHandlers<
  | 'simulateTransactionCompletion'
  | 'simulateTransactionFailure'
  | 'simulateTransactionReturn'
  | 'simulateIncomingPayment'
  | 'simulateKycOutcome'
  | 'simulateVerificationOutcome'
  | 'simulateBeneficiaryVerification'
  | 'simulateWebhookEvent'
> = {
  simulateTransactionCompletion: async (req, ctx) => ({ status: 200, body: await simulateCompletion(ctx, req.path.transactionId) }),
  simulateTransactionFailure: async (req, ctx) => ({ status: 200, body: await simulateFailure(ctx, req.path.transactionId, req.body.failureReason) }),
  simulateTransactionReturn: async (req, ctx) => ({ status: 200, body: await simulateReturn(ctx, req.path.transactionId) }),
  simulateIncomingPayment: async (req, ctx) => ({ status: 200, body: await simulateIncomingPayment(ctx, req.path.accountId, req.body) }),
  simulateKycOutcome: async (req, ctx) => ({ status: 200, body: await simulateKycOutcome(ctx, req.path.customerId, req.body.status) }),
  simulateVerificationOutcome: async (req, ctx) => ({ status: 200, body: await simulateVerificationOutcome(ctx, req.path.verificationId, req.body.status) }),
  simulateBeneficiaryVerification: async (req, ctx) => ({ status: 200, body: await simulateBeneficiaryVerification(ctx, req.path.externalAccountId, req.body.status) }),
  // It waits on the platform's endpoint, so it runs outside any database transaction.
  simulateWebhookEvent: withoutTransaction(async (req, ctx) => ({ status: 200, body: await triggerWebhook(ctx, req.body.type) })),
};
