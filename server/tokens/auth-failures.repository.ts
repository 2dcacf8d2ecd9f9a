// Failed authentications per clientId, as processes of versions before migration 0017 count them;
// kept only for them during a rolling upgrade (limits/ counts per clientId and address now).
import type { Db } from '../db/database.ts';

/** Forgets windows that have closed, so the table holds only live ones. */
export async function deleteExpiredFailures(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('auth_failures').where('window_started_at', '<', before).execute();
}
