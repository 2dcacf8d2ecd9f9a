// POST /sandbox/webhooks/test: sends a signed TEST event right away and reports the answer.
import { badRequest, notFound } from '../http/errors.ts';
import { now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { findPlatform } from '../platform/platform.repository.ts';
import { buildEvent, TEST_MESSAGE } from './events.ts';
import { sendWebhook } from './send.ts';

export const webhookHandlers: AreaHandlers<'sendSandboxTestWebhook'> = {
  async sendSandboxTestWebhook(_req, ctx) {
    const platform = await findPlatform(ctx.db, ctx.principal.platformId);
    if (platform === undefined) throw notFound('NOT_FOUND', 'No such platform.');
    if (platform.webhook_endpoint === null || platform.webhook_signing_secret === null) {
      throw badRequest('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config.');
    }
    const at = now();
    const event = buildEvent('TEST', { message: TEST_MESSAGE }, at);
    const result = await sendWebhook(platform.webhook_endpoint, platform.webhook_signing_secret, { id: event.id, body: JSON.stringify(event), at });
    return {
      status: 200,
      body: { response_status: result.responseStatus, url: platform.webhook_endpoint, response_body: result.error ?? result.responseBody },
    };
  },
};
