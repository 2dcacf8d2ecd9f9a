// Agents of the platform: created for one customer with a policy and a first device code, listed,
// read, renamed or paused, given a new policy or a new code, deleted (its access token stops
// working at once). A device code is redeemed once, within 15 minutes, for the agent's bearer
// access token, which is stored only as its SHA-256. Spec: the paths under /agents.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, RequestContext, ServiceContext } from '../context/context.ts';
import { requireLiveCustomer } from '../customers/customers.service.ts';
import { requireExternalAccount } from '../external-accounts/external-accounts.service.ts';
import { requireInternalAccount } from '../internal-accounts/internal-accounts.service.ts';
import { addMs } from '../shared/clock.ts';
import { isKnownCurrency } from '../shared/currencies.ts';
import { ApiError, badRequest, conflict, invalidField, notFound } from '../shared/errors.ts';
import { policyGrants, requireHeldGrants } from '../shared/grants.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { judgeInTurn, limitKey, type FailureLimit } from '../limits/failure-limits.service.ts';
import { throttledSource } from '../shared/source-address.ts';
import { toAgent, toDeviceCode } from './agents.mapper.ts';
import {
  findAgent,
  findAgentForUpdate,
  findLiveAgentForUpdate,
  findDeviceCode,
  findDeviceCodeForUpdate,
  insertAgent,
  insertDeviceCode,
  listAgents as listAgentRows,
  markCodeRedeemed,
  replaceOpenCodes,
  updateAgentRow,
  type AgentFilters,
  type AgentRow,
} from './agents.repository.ts';
import { usageOf } from './agent-usage.ts';
import { platformClock } from '../clock/clock.service.ts';

type Schemas = components['schemas'];
type Agent = Schemas['Agent'];
type Policy = Schemas['AgentPolicy'];

export const DEVICE_CODE_LIFETIME_MS = 15 * 60_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
export const agentNotFound = () => notFound('AGENT_NOT_FOUND', 'No such agent.');

export async function requireAgent(ctx: PlatformContext, agentId: string): Promise<AgentRow> {
  const row = await findAgent(ctx.db, ctx.platformId, agentId);
  if (row === undefined) throw agentNotFound();
  return row;
}

export async function agentOf(ctx: PlatformContext, row: AgentRow): Promise<Agent> {
  return toAgent(row, await usageOf(ctx, row));
}

/** Every account the policy names belongs to the agent's customer; currencies are ones the service knows. */
async function checkPolicy(ctx: PlatformContext, customerId: string, policy: Policy, at: string): Promise<void> {
  for (const [field, code] of [['spendingLimits/currency', policy.spendingLimits.currency], ['approvalThresholds/currency', policy.approvalThresholds?.currency]] as const) {
    if (code !== undefined && !isKnownCurrency(code)) throw invalidField(`${at}/${field}`, `${code} is not a currency the service supports.`, 'enum');
  }
  const ids = policy.accountRestrictions?.allowedAccountIds ?? [];
  for (const [i, id] of ids.entries()) {
    const owner = await accountOwner(ctx, id);
    if (owner !== customerId) throw invalidField(`${at}/accountRestrictions/allowedAccountIds/${i}`, `${id} is not an account of customer ${customerId}.`);
  }
}

/** An internal or external account of the platform, by its id's type (404 in that type's words). */
export async function requireAnyAccount(ctx: PlatformContext, accountId: string): Promise<{ customer_id: string | null }> {
  return accountId.startsWith('ExternalAccount:') ? requireExternalAccount(ctx, accountId) : requireInternalAccount(ctx, accountId);
}

/** The customer an internal or external account belongs to; undefined when none (or no such account). */
async function accountOwner(ctx: PlatformContext, accountId: string): Promise<string | null | undefined> {
  try {
    return (await requireAnyAccount(ctx, accountId)).customer_id;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

function newDeviceCode(): string {
  const part = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `AGENT-${part()}-${part()}`;
}

async function issueCode(ctx: PlatformContext, agentId: string, at = ctx.clock.now()): Promise<Schemas['AgentDeviceCode']> {
  await replaceOpenCodes(ctx.db, agentId, at);
  const code = newDeviceCode();
  const row = await insertDeviceCode(ctx.db, { code_hash: sha256(code), agent_id: agentId, expires_at: addMs(at, DEVICE_CODE_LIFETIME_MS), redeemed_at: null, replaced_at: null, created_at: at });
  return toDeviceCode(code, row);
}

export async function createAgent(ctx: RequestContext, body: Schemas['AgentCreateRequest']): Promise<Schemas['AgentCreateResponse']> {
  requireHeldGrants(ctx.principal, policyGrants(body.policy), 'the new agent\'s policy');
  const customer = await requireLiveCustomer(ctx, body.customerId);
  await checkPolicy(ctx, customer.id, body.policy, '/policy');
  const at = ctx.clock.now();
  const row = await insertAgent(ctx.db, {
    id: newId('Agent'),
    platform_id: ctx.platformId,
    customer_id: customer.id,
    name: body.name,
    policy: JSON.stringify(body.policy),
    access_token_hash: null,
    connected_at: null,
    deleted_at: null,
    created_at: at,
    updated_at: at,
  });
  return { agent: await agentOf(ctx, row), deviceCode: await issueCode(ctx, row.id, at) };
}

export async function listAgents(ctx: PlatformContext, query: AgentFilters & { limit?: number; cursor?: string }): Promise<Page<Agent>> {
  const page = await listPage(ctx.keys, query, (filters, request) => listAgentRows(ctx.db, ctx.platformId, filters, request), (row) => row);
  return { ...page, data: await Promise.all(page.data.map((row) => agentOf(ctx, row))) };
}

export async function getAgent(ctx: PlatformContext, agentId: string): Promise<Agent> {
  return agentOf(ctx, await requireAgent(ctx, agentId));
}

export async function updateAgent(ctx: RequestContext, agentId: string, body: Schemas['AgentUpdateRequest']): Promise<Agent> {
  const row = await requireAgent(ctx, agentId);
  // Resuming hands the agent its policy back; pausing and renaming give nothing.
  if (body.isPaused === false) requireHeldGrants(ctx.principal, policyGrants(row.policy), `agent ${row.id}'s policy`);
  const updated = await updateAgentRow(ctx.db, row.id, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.isPaused === undefined ? {} : { is_paused: body.isPaused }),
    updated_at: ctx.clock.now(),
  });
  return agentOf(ctx, updated);
}

/** The policy after an update: lists and modes replaced, limits merged field by field, `null` removes. */
export function mergePolicy(current: Policy, update: Schemas['AgentPolicyUpdateRequest']): Policy {
  const limits: Record<string, unknown> = { ...current.spendingLimits };
  for (const [key, value] of Object.entries(update.spendingLimits ?? {})) {
    if (value === null) delete limits[key];
    else limits[key] = value;
  }
  const { accountRestrictions, approvalThresholds, ...rest } = current;
  const restrictions = update.accountRestrictions === undefined ? accountRestrictions : (update.accountRestrictions ?? undefined);
  const thresholds = update.approvalThresholds === undefined ? approvalThresholds : (update.approvalThresholds ?? undefined);
  return {
    ...rest,
    ...(update.permissions === undefined ? {} : { permissions: update.permissions }),
    ...(update.defaultExecutionMode === undefined ? {} : { defaultExecutionMode: update.defaultExecutionMode }),
    spendingLimits: limits as Policy['spendingLimits'],
    ...(restrictions === undefined ? {} : { accountRestrictions: restrictions }),
    ...(thresholds === undefined ? {} : { approvalThresholds: thresholds }),
  };
}

export async function updateAgentPolicy(ctx: RequestContext, agentId: string, body: Schemas['AgentPolicyUpdateRequest']): Promise<Agent> {
  const row = await requireAgent(ctx, agentId);
  const policy = mergePolicy(row.policy, body);
  // The whole merged policy, not only what changed: raising a money agent's limits gives money too.
  requireHeldGrants(ctx.principal, policyGrants(policy), `agent ${row.id}'s policy as changed`);
  await checkPolicy(ctx, row.customer_id, policy, '');
  return agentOf(ctx, await updateAgentRow(ctx.db, row.id, { policy: JSON.stringify(policy), updated_at: ctx.clock.now() }));
}

export async function deleteAgent(ctx: PlatformContext, agentId: string): Promise<void> {
  const found = await requireAgent(ctx, agentId);
  // Locked before its codes are replaced, in the order redeeming and issuing take.
  const row = await findAgentForUpdate(ctx.db, found.id);
  if (row === undefined) throw agentNotFound();
  const at = ctx.clock.now();
  await replaceOpenCodes(ctx.db, row.id, at);
  await updateAgentRow(ctx.db, row.id, { deleted_at: at, updated_at: at });
}

export async function issueDeviceCode(ctx: RequestContext, agentId: string): Promise<Schemas['AgentDeviceCode']> {
  const found = await requireAgent(ctx, agentId);
  // Whoever redeems the code acts under the agent's policy.
  requireHeldGrants(ctx.principal, policyGrants(found.policy), `agent ${found.id}'s policy`);
  const row = await findAgentForUpdate(ctx.db, found.id);
  if (row === undefined) throw agentNotFound();
  if (row.connected_at !== null) throw conflict('AGENT_ALREADY_CONNECTED', `Agent ${row.id} already redeemed a device code; delete it and create a new agent to connect another instance.`);
  return issueCode(ctx, row.id);
}

/**
 * Unknown device codes one client (an address: shared/source-address.ts) may try: 10 at once, then
 * one more every 30 seconds. A code has 40 bits, and unlimited guesses would find live ones; a
 * client over the limit has every redeem refused for those seconds, valid code or not (an answer
 * would tell a guesser it guessed right), and no other client is affected.
 */
export const UNKNOWN_CODE_LIMIT: FailureLimit = {
  name: 'device-code-redeem',
  max: 10,
  periodMs: 5 * 60_000,
  refusal: { code: 'RATE_LIMITED', message: 'Too many unknown device codes from this address; wait before trying again.' },
};
const redeemKey = (address: string) => limitKey(UNKNOWN_CODE_LIMIT, throttledSource(address));

/**
 * Redeems `code` sent from `address` (`ctx.db` the pool): 429 while that client has no attempt
 * left, whatever it sends; an unknown code counted against it. Redeems from one address take
 * their turns (judgeInTurn), so a burst of codes is judged no more than the limit allows.
 */
export async function redeemWithinLimit(ctx: ServiceContext, address: string, code: string): Promise<Schemas['AgentDeviceCodeRedeemResponse']> {
  return judgeInTurn(ctx, UNKNOWN_CODE_LIMIT, redeemKey(address), {
    judge: (turn) => redeemDeviceCode(turn, code),
    isFailure: (err) => err instanceof ApiError && err.code === 'DEVICE_CODE_NOT_FOUND',
  });
}

/** No credentials: the code is one. Whatever the platform, the code names its agent. */
export async function redeemDeviceCode(ctx: ServiceContext, code: string): Promise<Schemas['AgentDeviceCodeRedeemResponse']> {
  // The agent is locked before its code, as issuing a code does (agents.repository.ts).
  const found = await findDeviceCode(ctx.db, sha256(code));
  const agent = found === undefined ? undefined : await findLiveAgentForUpdate(ctx.db, found.agent_id);
  const codeRow = agent === undefined ? undefined : await findDeviceCodeForUpdate(ctx.db, sha256(code));
  if (codeRow === undefined || agent === undefined) throw notFound('DEVICE_CODE_NOT_FOUND', 'No such device code.');
  if (codeRow.redeemed_at !== null) throw badRequest('DEVICE_CODE_ALREADY_REDEEMED', 'This device code was already redeemed.');
  // The code expires on its platform's clock (nobody's is the caller's: the code is the credential).
  const at = (await platformClock(ctx, agent.platform_id)).now();
  if (codeRow.replaced_at !== null || codeRow.expires_at.getTime() <= at.getTime()) {
    throw badRequest('DEVICE_CODE_EXPIRED', 'This device code expired or was replaced by a newer one; ask the platform for a new code.');
  }
  const accessToken = `agt_sandbox_${randomBytes(32).toString('base64url')}`;
  await markCodeRedeemed(ctx.db, codeRow.code_hash, at);
  const connected = await updateAgentRow(ctx.db, agent.id, { access_token_hash: sha256(accessToken), connected_at: at, updated_at: at });
  return { agentId: connected.id, agentName: connected.name, accessToken, policy: connected.policy };
}
