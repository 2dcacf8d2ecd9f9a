// POST /sandbox/webhooks/test: sends a signed TEST event right away and reports the answer. It
// waits on the platform's endpoint, so it runs outside any database transaction.
import { withoutTransaction, type AreaHandlers } from '../context/handler-types.ts';
import { sendTestWebhook } from './webhooks.service.ts';

export const webhookHandlers: AreaHandlers<'sendSandboxTestWebhook'> = {
  sendSandboxTestWebhook: withoutTransaction(async (_req, ctx) => ({ status: 200, body: await sendTestWebhook(ctx) })),
};
