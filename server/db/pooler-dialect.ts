// kysely's PostgreSQL dialect for a transaction-mode pooler (DATABASE_POOL_MODE=transaction), which
// hands each transaction, and each statement outside one, to whichever server connection is free.
// Its migrator takes a session-level advisory lock on one statement and releases it on another: a
// pooler may run those on two server connections, and the lock would stay held, in the pooler's
// pool, after the migrations. Here the same lock is taken for the migrations' transaction instead
// (migrate.ts runs them in one), so it ends with that transaction, whichever connection ran it.
import { PostgresAdapter, PostgresDialect, sql, type DialectAdapter, type Kysely } from 'kysely';

/** kysely's migration lock (postgres-adapter.js): a server of another version migrating at once still waits for this one. */
const MIGRATION_LOCK_ID = sql.lit(BigInt('3853314791062309107'));

class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(db);
  }

  override async releaseMigrationLock(): Promise<void> {}
}

export class PoolerDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionLockAdapter();
  }
}
