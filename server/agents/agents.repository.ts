// Agents and their device codes. A deleted agent keeps its row (its actions name it) but is never
// found again: not by id, not by its access token. An agent of a deleted customer keeps its row too,
// but its token and device codes no longer find it: it acts for no one. Locks are taken agent first, then its codes
// (issuing, redeeming, deleting): two orders would deadlock each other.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { inTimeWindow, pageQuery, TIME_WINDOW_BOUNDS, timeWindow, type ListPlan, type TimeWindow } from '../db/paginate.ts';
import type { AgentDeviceCodeTable, AgentTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type AgentRow = Selectable<AgentTable>;
export type DeviceCodeRow = Selectable<AgentDeviceCodeTable>;

export interface AgentFilters {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

export async function insertAgent(db: Db, row: Insertable<AgentTable>): Promise<AgentRow> {
  return db.insertInto('agents').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAgent(db: Db, platformId: string, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('platform_id', '=', platformId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The agent, locked until the end of the transaction (its code issue, redemption and actions take turns). */
export async function findAgentForUpdate(db: Db, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

const ofLiveCustomer = sql<boolean>`exists (select 1 from customers c where c.id = agents.customer_id and not c.is_deleted)`;

export async function findAgentByTokenHash(db: Db, tokenHash: string): Promise<AgentRow | undefined> {
  return db
    .selectFrom('agents')
    .selectAll('agents')
    .where('access_token_hash', '=', tokenHash)
    .where('deleted_at', 'is', null)
    .where(ofLiveCustomer)
    .executeTakeFirst();
}

/** Whether the agent's customer is still there: an agent of a deleted customer acts for no one. Not locked. */
export async function isOfLiveCustomer(db: Db, agentId: string): Promise<boolean> {
  return (await db.selectFrom('agents').select('id').where('id', '=', agentId).where(ofLiveCustomer).executeTakeFirst()) !== undefined;
}

/** The agent, locked, when it may still act or connect: neither it nor its customer deleted. */
export async function findLiveAgentForUpdate(db: Db, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).where('deleted_at', 'is', null).where(ofLiveCustomer).forUpdate().executeTakeFirst();
}

type AgentListParams = Pick<AgentFilters, 'customerId' | 'isPaused' | 'isConnected'> & TimeWindow & { platformId: string };

/** Counts kept by the database (migration 0018): unfiltered or by one of these, with one time bound or none; an updated_at bound planned per call. */
const plan: ListPlan<AgentListParams> = {
  by: { isPaused: 'is_paused', isConnected: 'is_connected' },
  windows: TIME_WINDOW_BOUNDS,
  plannedPerCall: ['updatedAfter', 'updatedBefore'],
};

const agentsPage = pageQuery(
  'agents',
  (db, p: AgentListParams) => {
    let q = db.selectFrom('agents').where('platform_id', '=', p.platformId).where('deleted_at', 'is', null);
    if (p.customerId !== undefined) q = q.where('customer_id', '=', p.customerId);
    if (p.isPaused !== undefined) q = q.where('is_paused', '=', p.isPaused);
    if (p.isConnected !== undefined) q = q.where(sql<boolean>`connected_at is not null`, '=', p.isConnected);
    return inTimeWindow(q, 'agents', p);
  },
  (s) => s.selectAll(),
  plan,
);

export async function listAgents(db: Db, platformId: string, f: AgentFilters, page: PageRequest): Promise<PageRows<AgentRow>> {
  return agentsPage(
    db,
    {
      platformId,
      customerId: f.customerId,
      isPaused: f.isPaused,
      isConnected: f.isConnected,
      ...timeWindow(f),
    },
    page,
  );
}

export async function updateAgentRow(
  db: Db,
  id: string,
  changes: Pick<Updateable<AgentTable>, 'name' | 'is_paused' | 'policy' | 'access_token_hash' | 'connected_at' | 'deleted_at' | 'updated_at'>,
): Promise<AgentRow> {
  return db.updateTable('agents').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function insertDeviceCode(db: Db, row: Insertable<AgentDeviceCodeTable>): Promise<DeviceCodeRow> {
  return db.insertInto('agent_device_codes').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Makes the agent's unredeemed codes unusable (a newer code replaces them, or the agent is deleted). */
export async function replaceOpenCodes(db: Db, agentId: string, at: Date): Promise<void> {
  await db.updateTable('agent_device_codes').set({ replaced_at: at }).where('agent_id', '=', agentId).where('redeemed_at', 'is', null).where('replaced_at', 'is', null).execute();
}

/** The code, unlocked: which agent to lock before the code itself. */
export async function findDeviceCode(db: Db, codeHash: string): Promise<DeviceCodeRow | undefined> {
  return db.selectFrom('agent_device_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** The code, locked (after its agent): two redemptions of one code take turns, so one of them wins. */
export async function findDeviceCodeForUpdate(db: Db, codeHash: string): Promise<DeviceCodeRow | undefined> {
  return db.selectFrom('agent_device_codes').selectAll().where('code_hash', '=', codeHash).forUpdate().executeTakeFirst();
}

export async function markCodeRedeemed(db: Db, codeHash: string, at: Date): Promise<void> {
  await db.updateTable('agent_device_codes').set({ redeemed_at: at }).where('code_hash', '=', codeHash).execute();
}
