// Platform configuration and sandbox platforms. The webhook signing secret is created with the
// first endpoint (or on rotation), shown in that one response and stored sealed; setting or
// changing the endpoint emits a TEST event.
import { randomBytes } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { openInternalAccounts } from '../internal-accounts/internal-accounts.service.ts';
import { badRequest, invalidField, invalidFields, notFound, type FieldError } from '../shared/errors.ts';
import { newOpaqueId } from '../shared/ids.ts';
import { isKnownCurrency } from '../shared/currencies.ts';
import { MAX_AMOUNT } from '../shared/money.ts';
import { SANDBOX_UMA_DOMAIN } from '../simulation/uma-addresses.ts';
import { configuredTokenState, issueToken } from '../tokens/tokens.service.ts';
import { emitEvent, TEST_MESSAGE } from '../webhooks/webhooks.service.ts';
import { nonPublicHostReason } from '../webhooks/webhook-target.ts';
import { toConfig } from './platform.mapper.ts';
import {
  findAnyPlatform,
  findPlatform,
  findPlatformForUpdate,
  insertPlatform,
  listUnsealedSigningSecrets,
  setSigningSecret,
  updatePlatform,
  type PlatformChanges,
} from './platform.repository.ts';

type Schemas = components['schemas'];
type PlatformConfig = Schemas['PlatformConfig'];

export const SANDBOX_CURRENCIES = ['USD', 'EUR', 'GBP', 'MXN', 'AED', 'BTC'];

const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function getConfig(ctx: PlatformContext): Promise<PlatformConfig> {
  const row = await findPlatform(ctx.db, ctx.platformId);
  if (row === undefined) throw notFound('NOT_FOUND', 'No such platform.');
  return toConfig(row);
}

/** What the schema cannot say about a currency list: one entry per currency, min ≤ max. */
function checkCurrencies(list: readonly Schemas['PlatformCurrencyConfig'][]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    if (seen.has(entry.currencyCode)) errors.push({ field: `/supportedCurrencies/${i}/currencyCode`, message: `${entry.currencyCode} is listed more than once.`, constraint: 'uniqueItems' });
    seen.add(entry.currencyCode);
    if (entry.minAmount > entry.maxAmount) {
      errors.push({ field: `/supportedCurrencies/${i}/maxAmount`, message: `maxAmount must be at least minAmount (${entry.minAmount}).`, constraint: 'minimum' });
    }
    // The schema says so too; checked again because stored limits must always be valid.
    if (entry.maxAmount > MAX_AMOUNT) errors.push({ field: `/supportedCurrencies/${i}/maxAmount`, message: `maxAmount must be at most ${MAX_AMOUNT}.`, constraint: 'maximum' });
  });
  if (errors.length > 0) throw invalidFields(errors);
}

/** What the schema cannot say about the fees: one entry per currency, and a currency the service knows. */
function checkFees(list: readonly Schemas['PlatformFeeConfig'][]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    if (seen.has(entry.sourceCurrency)) errors.push({ field: `/feeConfigs/${i}/sourceCurrency`, message: `${entry.sourceCurrency} is listed more than once.`, constraint: 'uniqueItems' });
    if (!isKnownCurrency(entry.sourceCurrency)) errors.push({ field: `/feeConfigs/${i}/sourceCurrency`, message: `${entry.sourceCurrency} is not a currency the service supports.`, constraint: 'enum' });
    seen.add(entry.sourceCurrency);
  });
  if (errors.length > 0) throw invalidFields(errors);
}

export async function updateConfig(ctx: PlatformContext, input: Schemas['PlatformConfigUpdateRequest']): Promise<PlatformConfig> {
  // Locked: two concurrent updates (two rotations, say) apply one after the other, never lose one.
  const current = await findPlatformForUpdate(ctx.db, ctx.platformId);
  if (current === undefined) throw notFound('NOT_FOUND', 'No such platform.');
  const { name, umaDomain, webhookEndpoint, rotateWebhookSigningSecret, supportedCurrencies, feeConfigs } = input;
  const changes: PlatformChanges = {};
  if (name !== undefined) changes.name = name;
  if (umaDomain !== undefined) changes.uma_domain = umaDomain;
  if (supportedCurrencies !== undefined) {
    checkCurrencies(supportedCurrencies);
    changes.supported_currencies = supportedCurrencies;
  }
  if (feeConfigs !== undefined) {
    checkFees(feeConfigs);
    changes.fee_configs = feeConfigs;
  }
  if (typeof webhookEndpoint === 'string' && !ctx.settings.allowPrivateWebhookTargets) {
    const reason = nonPublicHostReason(new URL(webhookEndpoint));
    if (reason !== undefined) throw invalidField('/webhookEndpoint', `Webhooks cannot be sent to ${reason}: the endpoint must be a public address.`, 'format');
  }

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
    changes.webhook_signing_secret = ctx.keys.seal(shownSecret);
  }

  const row = await updatePlatform(ctx.db, current.id, changes, ctx.clock.now());
  if (webhookEndpoint !== undefined && webhookEndpoint !== null && webhookEndpoint !== current.webhook_endpoint) {
    await emitEvent(ctx, 'TEST', { message: TEST_MESSAGE });
  }
  return { ...toConfig(row), ...(shownSecret === undefined ? {} : { webhookSigningSecret: shownSecret }) };
}

/** A new sandbox platform with its own internal accounts and a MANAGE+TRANSACT+VIEW token. */
export async function createSandboxPlatform(ctx: ServiceContext, name: string, credentials?: { clientId: string; clientSecret: string }) {
  const at = ctx.clock.now();
  const platform = await insertPlatform(ctx.db, {
    id: newOpaqueId(),
    name,
    uma_domain: SANDBOX_UMA_DOMAIN,
    webhook_endpoint: null,
    webhook_signing_secret: null,
    fee_configs: [],
    supported_currencies: SANDBOX_CURRENCIES.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 100_000_000_000, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] })),
    created_at: at,
    updated_at: at,
  });
  const platformCtx = { ...ctx, platformId: platform.id };
  await openInternalAccounts(platformCtx, null, SANDBOX_CURRENCIES);
  const { row, clientSecret } = await issueToken(platformCtx, 'Sandbox bootstrap token', ['MANAGE', 'TRANSACT', 'VIEW'], credentials);
  return { platformId: platform.id, clientId: row.client_id, clientSecret };
}

/** The platform of the first start (and the configured token); a refusal says what to change. */
export class BootstrapError extends Error {}

export interface Bootstrap {
  platformId: string;
  /** Set when this start created the platform with random credentials, to be printed once. */
  created?: { clientId: string; clientSecret: string };
}

/**
 * The first start of an empty database creates a sandbox platform whose token has every
 * permission: with PAYMENTS_CLIENT_ID/SECRET when set, otherwise random credentials returned to be
 * printed once. Later starts add the configured token if it is new; a configured token that was
 * deleted through the API, or whose secret differs from the stored one, stops the start: reviving
 * or silently ignoring it would undo what someone did on purpose.
 */
export async function bootstrapPlatform(ctx: ServiceContext, credentials: { clientId: string; clientSecret: string } | undefined): Promise<Bootstrap> {
  const platform = await findAnyPlatform(ctx.db);
  if (platform === undefined) {
    const created = await createSandboxPlatform(ctx, 'Sandbox platform', credentials);
    return { platformId: created.platformId, ...(credentials === undefined ? { created: { clientId: created.clientId, clientSecret: created.clientSecret } } : {}) };
  }
  if (credentials !== undefined) {
    const state = await configuredTokenState(ctx, credentials);
    if (state === 'deleted') {
      throw new BootstrapError(`The token PAYMENTS_CLIENT_ID=${credentials.clientId} was deleted through the API. Unset PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET, or choose a new clientId.`);
    }
    if (state === 'other-secret') {
      throw new BootstrapError(`The token PAYMENTS_CLIENT_ID=${credentials.clientId} exists with another secret than PAYMENTS_CLIENT_SECRET. Set the secret it was created with, or choose a new clientId.`);
    }
    if (state === 'absent') await issueToken({ ...ctx, platformId: platform.id }, 'Sandbox bootstrap token', ['MANAGE', 'TRANSACT', 'VIEW'], credentials);
  }
  return { platformId: platform.id };
}

/** Secrets stored before the server sealed them are sealed once, at start. */
export async function sealLegacySecrets(ctx: ServiceContext): Promise<number> {
  const legacy = await listUnsealedSigningSecrets(ctx.db);
  for (const p of legacy) await setSigningSecret(ctx.db, p.id, ctx.keys.seal(p.secret));
  return legacy.length;
}
