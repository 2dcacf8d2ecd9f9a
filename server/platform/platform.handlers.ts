// Platform configuration. The webhook signing secret is created with the first endpoint (or on
// rotation) and shown in that one response; setting or changing the endpoint queues a TEST event.
import { randomBytes } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import { badRequest, notFound } from '../http/errors.ts';
import { iso, now } from '../http/ids.ts';
import type { AreaHandlers } from '../http/operations.ts';
import { queueEvent, TEST_MESSAGE } from '../webhooks/events.ts';
import { findPlatform, updatePlatform, type PlatformChanges, type PlatformRow } from './platform.repository.ts';

type PlatformConfig = components['schemas']['PlatformConfig'];

const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const toConfig = (row: PlatformRow): PlatformConfig => ({
  id: row.id,
  name: row.name,
  umaDomain: row.uma_domain,
  ...(row.webhook_endpoint === null ? {} : { webhookEndpoint: row.webhook_endpoint }),
  supportedCurrencies: row.supported_currencies as PlatformConfig['supportedCurrencies'],
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const platformHandlers: AreaHandlers<'getPlatformConfig' | 'updatePlatformConfig'> = {
  async getPlatformConfig(_req, ctx) {
    const row = await findPlatform(ctx.db, ctx.principal.platformId);
    if (row === undefined) throw notFound('NOT_FOUND', 'No such platform.');
    return { status: 200, body: toConfig(row) };
  },

  async updatePlatformConfig(req, ctx) {
    const current = await findPlatform(ctx.db, ctx.principal.platformId);
    if (current === undefined) throw notFound('NOT_FOUND', 'No such platform.');
    const { name, umaDomain, webhookEndpoint, rotateWebhookSigningSecret, supportedCurrencies } = req.body;
    const changes: PlatformChanges = {};
    if (name !== undefined) changes.name = name;
    if (umaDomain !== undefined) changes.uma_domain = umaDomain;
    if (supportedCurrencies !== undefined) changes.supported_currencies = supportedCurrencies;

    const endpoint = webhookEndpoint === undefined ? current.webhook_endpoint : webhookEndpoint;
    if (rotateWebhookSigningSecret === true && endpoint === null) {
      throw badRequest('WEBHOOK_ENDPOINT_NOT_SET', 'Set a webhookEndpoint before rotating the webhook signing secret.');
    }
    let shownSecret: string | undefined;
    if (webhookEndpoint === null) {
      // Removing the endpoint retires its secret: a later endpoint gets a new one, shown once.
      changes.webhook_endpoint = null;
      changes.webhook_signing_secret = null;
    } else if (webhookEndpoint !== undefined) {
      changes.webhook_endpoint = webhookEndpoint;
    }
    if (endpoint !== null && (rotateWebhookSigningSecret === true || current.webhook_signing_secret === null)) {
      shownSecret = newSigningSecret();
      changes.webhook_signing_secret = shownSecret;
    }

    const row = await updatePlatform(ctx.db, current.id, changes, now());
    if (webhookEndpoint !== undefined && webhookEndpoint !== null && webhookEndpoint !== current.webhook_endpoint) {
      await queueEvent(ctx.db, current.id, 'TEST', { message: TEST_MESSAGE });
    }
    return { status: 200, body: { ...toConfig(row), ...(shownSecret === undefined ? {} : { webhookSigningSecret: shownSecret }) } };
  },
};
