// Stored responses of requests sent with an Idempotency-Key. A key is taken with a transaction-
// scoped advisory lock and its response stored in that same transaction, so a stored response
// always matches committed effects, a duplicate arriving meanwhile is refused at once, and a
// process that dies mid-request leaves nothing behind (its lock goes with its connection).
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface KeyScope {
  credentialId: string;
  operationId: string;
  key: string;
}

const where = (scope: KeyScope) => ({ credential_id: scope.credentialId, operation_id: scope.operationId, idempotency_key: scope.key });

/** Takes the key's lock for the rest of the transaction; false when another transaction holds it. */
export async function tryLockKey(db: Db, scope: KeyScope): Promise<boolean> {
  const lockName = `idempotency\u0001${scope.credentialId}\u0001${scope.operationId}\u0001${scope.key}`;
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${lockName}, 0)) as locked`.execute(db);
  return rows[0]?.locked === true;
}

export async function findStoredResponse(db: Db, scope: KeyScope): Promise<{ requestHash: string; response: string; createdAt: Date } | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response', 'created_at'])
    .where('credential_id', '=', scope.credentialId)
    .where('operation_id', '=', scope.operationId)
    .where('idempotency_key', '=', scope.key)
    .executeTakeFirst();
  return row === undefined ? undefined : { requestHash: row.request_hash, response: row.response, createdAt: row.created_at };
}

/** Stores (or, for an expired key, replaces) the response of the key. */
export async function storeResponse(db: Db, scope: KeyScope, requestHash: string, response: string, at: Date): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({ ...where(scope), request_hash: requestHash, response, created_at: at })
    .onConflict((oc) => oc.columns(['credential_id', 'operation_id', 'idempotency_key']).doUpdateSet({ request_hash: requestHash, response, created_at: at }))
    .execute();
}

export async function deleteResponsesBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
