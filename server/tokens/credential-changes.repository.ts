// Announces that an API token changed (deleted, or its clientId locked out by failed attempts) on
// PostgreSQL's notification channel: every server process listening forgets what it cached of it.
// Sent inside the caller's transaction, NOTIFY is delivered only if and when it commits.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export const CREDENTIALS_CHANNEL = 'payments_credentials';

export async function announceCredentialChange(db: Db, clientId: string): Promise<void> {
  await sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${clientId})`.execute(db);
}
