// Storage of Idempotency-Key outcomes. A key is claimed with an IN_FLIGHT row before the work
// starts (so a concurrent duplicate sees it), and completed in the same database transaction as
// the work itself (so a stored response always matches committed effects).
import type { Db } from './database.ts';

export interface KeyScope {
  credentialId: string;
  operationId: string;
  key: string;
}

export type StoredKey = { state: 'IN_FLIGHT' | 'DONE'; requestHash: string; status: number | null; body: unknown; lockedAt: Date; createdAt: Date };

const where = (scope: KeyScope) =>
  ({ credential_id: scope.credentialId, operation_id: scope.operationId, idempotency_key: scope.key }) as const;

/** Returns true when this call claimed the key. */
export async function claimKey(db: Db, scope: KeyScope, requestHash: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...where(scope), request_hash: requestHash, state: 'IN_FLIGHT', response_status: null, response_body: null, locked_at: at, created_at: at })
    .onConflict((oc) => oc.columns(['credential_id', 'operation_id', 'idempotency_key']).doNothing())
    .returning('credential_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findKey(db: Db, scope: KeyScope): Promise<StoredKey | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['state', 'request_hash', 'response_status', 'response_body', 'locked_at', 'created_at'])
    .where('credential_id', '=', scope.credentialId)
    .where('operation_id', '=', scope.operationId)
    .where('idempotency_key', '=', scope.key)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : { state: row.state, requestHash: row.request_hash, status: row.response_status, body: row.response_body, lockedAt: row.locked_at, createdAt: row.created_at };
}

/** Takes over an abandoned IN_FLIGHT claim (or an expired key); true when this call won it. */
export async function reclaimKey(db: Db, scope: KeyScope, previousLock: Date, requestHash: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ state: 'IN_FLIGHT', request_hash: requestHash, response_status: null, response_body: null, locked_at: at, created_at: at })
    .where('credential_id', '=', scope.credentialId)
    .where('operation_id', '=', scope.operationId)
    .where('idempotency_key', '=', scope.key)
    .where('locked_at', '=', previousLock)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function completeKey(db: Db, scope: KeyScope, status: number, body: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'DONE', response_status: status, response_body: JSON.stringify(body ?? null) })
    .where('credential_id', '=', scope.credentialId)
    .where('operation_id', '=', scope.operationId)
    .where('idempotency_key', '=', scope.key)
    .execute();
}

export async function releaseKey(db: Db, scope: KeyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('credential_id', '=', scope.credentialId)
    .where('operation_id', '=', scope.operationId)
    .where('idempotency_key', '=', scope.key)
    .where('state', '=', 'IN_FLIGHT')
    .execute();
}
