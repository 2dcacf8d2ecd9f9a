// Agent actions. Their status moves only conditionally on the status it was read in.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery } from '../db/paginate.ts';
import type { AgentActionTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type AgentActionRow = Selectable<AgentActionTable>;

export interface ActionFilters {
  agentId: string;
  status?: AgentActionRow['status'];
  type?: AgentActionRow['type'];
}

export async function insertAction(db: Db, row: Insertable<AgentActionTable>): Promise<AgentActionRow> {
  return db.insertInto('agent_actions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAction(db: Db, platformId: string, id: string, agentId: string): Promise<AgentActionRow | undefined> {
  return db.selectFrom('agent_actions').selectAll().where('platform_id', '=', platformId).where('id', '=', id).where('agent_id', '=', agentId).executeTakeFirst();
}

/** The action whose payment is `transactionId`, locked: one decision at a time. */
export async function findActionOfTransactionForUpdate(db: Db, platformId: string, transactionId: string): Promise<AgentActionRow | undefined> {
  return db.selectFrom('agent_actions').selectAll().where('platform_id', '=', platformId).where('transaction_id', '=', transactionId).forUpdate().executeTakeFirst();
}

/** An agent's actions still waiting for the platform, locked, in id order (the order every locker uses). */
export async function findPendingActionsOfAgentForUpdate(db: Db, platformId: string, agentId: string): Promise<AgentActionRow[]> {
  return db.selectFrom('agent_actions').selectAll().where('platform_id', '=', platformId).where('agent_id', '=', agentId).where('status', '=', 'PENDING_APPROVAL').orderBy('id').forUpdate().execute();
}

export async function findActionForUpdate(db: Db, platformId: string, id: string, agentId: string): Promise<AgentActionRow | undefined> {
  return db.selectFrom('agent_actions').selectAll().where('platform_id', '=', platformId).where('id', '=', id).where('agent_id', '=', agentId).forUpdate().executeTakeFirst();
}

const actionsPage = pageQuery(
  'agent_actions',
  (db, p: ActionFilters & { platformId: string }) => {
    let q = db.selectFrom('agent_actions').where('platform_id', '=', p.platformId).where('agent_id', '=', p.agentId);
    if (p.status !== undefined) q = q.where('status', '=', p.status);
    if (p.type !== undefined) q = q.where('type', '=', p.type);
    return q;
  },
  (s) => s.selectAll(),
);

export async function listActions(db: Db, platformId: string, f: ActionFilters, page: PageRequest): Promise<PageRows<AgentActionRow>> {
  return actionsPage(db, { platformId, agentId: f.agentId, status: f.status, type: f.type }, page);
}

/** What the agent's pending and approved actions since `since` weigh: their total and their number. */
export async function countedSince(db: Db, agentId: string, since: Date, statuses: readonly AgentActionRow['status'][]): Promise<{ total: number; count: number }> {
  const row = await db
    .selectFrom('agent_actions')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<string>('counted_amount'), eb.val('0')).as('total'), eb.fn.countAll<string>().as('count')])
    .where('agent_id', '=', agentId)
    .where('status', 'in', [...statuses])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), count: Number(row.count) };
}

export async function moveActionStatus(
  db: Db,
  id: string,
  from: AgentActionRow['status'],
  changes: Pick<Updateable<AgentActionTable>, 'status' | 'rejection_reason' | 'updated_at'>,
): Promise<AgentActionRow | undefined> {
  return db.updateTable('agent_actions').set(changes).where('id', '=', id).where('status', '=', from).returningAll().executeTakeFirst();
}
