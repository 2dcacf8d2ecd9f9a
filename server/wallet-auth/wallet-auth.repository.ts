// Credentials, sessions, signing requests and the one-time-code outbox of Embedded Wallets. Every
// read is scoped to the platform; "live" credentials are not revoked, "active" sessions are neither
// revoked nor expired.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { pageQuery } from '../db/paginate.ts';
import type { WalletCredentialTable, WalletEmailTable, WalletRequestTable, WalletSessionTable } from '../db/schema.ts';
import type { PageRequest, PageRows } from '../shared/page.ts';

export type CredentialRow = Selectable<WalletCredentialTable>;
export type SessionRow = Selectable<WalletSessionTable>;
export type WalletRequestRow = Selectable<WalletRequestTable>;
export type WalletEmailRow = Selectable<WalletEmailTable>;

/** Inserts a credential; undefined when the wallet already has a live one of its type. */
export async function insertCredential(db: Db, row: Insertable<WalletCredentialTable>): Promise<CredentialRow | undefined> {
  return db
    .insertInto('wallet_credentials')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'type']).where('revoked_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findLiveCredential(db: Db, platformId: string, id: string): Promise<CredentialRow | undefined> {
  return db.selectFrom('wallet_credentials').selectAll().where('platform_id', '=', platformId).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
}

/** The wallet's live credentials, newest first. */
export async function listLiveCredentials(db: Db, accountId: string): Promise<CredentialRow[]> {
  return db.selectFrom('wallet_credentials').selectAll().where('account_id', '=', accountId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function updateCredential(
  db: Db,
  id: string,
  changes: Pick<Updateable<WalletCredentialTable>, 'otp_hash' | 'otp_sent_at' | 'last_challenge_at' | 'verify_failures' | 'verify_window_started_at' | 'revoked_at' | 'updated_at'>,
): Promise<CredentialRow> {
  return db.updateTable('wallet_credentials').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Sets the challenge time unless another challenge came after `notAfter`; false when one did. */
export async function claimChallengeSlot(db: Db, id: string, at: Date, notAfter: Date): Promise<boolean> {
  const row = await db
    .updateTable('wallet_credentials')
    .set({ last_challenge_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_challenge_at', 'is', null), eb('last_challenge_at', '<=', notAfter)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertSession(db: Db, row: Insertable<WalletSessionTable>): Promise<SessionRow> {
  return db.insertInto('wallet_sessions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findActiveSession(db: Db, platformId: string, id: string, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('wallet_sessions')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

const activeSessionsPage = pageQuery(
  'wallet_sessions',
  (db, p: { accountId: string; now: Date }) => db.selectFrom('wallet_sessions').where('account_id', '=', p.accountId).where('revoked_at', 'is', null).where('expires_at', '>', p.now),
  (s) =>
    s.selectAll('wallet_sessions').select((eb) =>
      eb.selectFrom('wallet_credentials').select('wallet_credentials.type').whereRef('wallet_credentials.id', '=', 'wallet_sessions.credential_id').$asScalar().as('type'),
    ),
);

/** A page of the wallet's active sessions, newest first, with the type of the credential that opened each (GET /auth/sessions). */
export async function pageActiveSessions(db: Db, accountId: string, now: Date, page: PageRequest): Promise<PageRows<SessionRow & { type: CredentialRow['type'] }>> {
  return activeSessionsPage(db, { accountId, now }, page);
}

/** The wallet's active sessions, newest first, with the type of the credential that opened each (the signers of a signed retry). */
export async function listActiveSessions(db: Db, accountId: string, now: Date, limit = 100): Promise<(SessionRow & { type: CredentialRow['type'] })[]> {
  return db
    .selectFrom('wallet_sessions')
    .innerJoin('wallet_credentials', 'wallet_credentials.id', 'wallet_sessions.credential_id')
    .selectAll('wallet_sessions')
    .select('wallet_credentials.type')
    .where('wallet_sessions.account_id', '=', accountId)
    .where('wallet_sessions.revoked_at', 'is', null)
    .where('wallet_sessions.expires_at', '>', now)
    .orderBy('wallet_sessions.created_at', 'desc')
    .orderBy('wallet_sessions.id', 'desc')
    .limit(limit)
    .execute();
}

export async function revokeSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('wallet_sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function revokeSessionsOf(db: Db, credentialId: string, at: Date): Promise<void> {
  await db.updateTable('wallet_sessions').set({ revoked_at: at }).where('credential_id', '=', credentialId).where('revoked_at', 'is', null).execute();
}

export async function insertWalletRequest(db: Db, row: Insertable<WalletRequestTable>): Promise<WalletRequestRow> {
  return db.insertInto('wallet_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The request, locked until the end of the transaction: two retries with one requestId take turns. */
export async function findWalletRequestForUpdate(db: Db, platformId: string, id: string): Promise<WalletRequestRow | undefined> {
  return db.selectFrom('wallet_requests').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The signing request a quote was created with, locked. */
export async function findTargetRequestForUpdate(db: Db, platformId: string, targetId: string, operation: string): Promise<WalletRequestRow | undefined> {
  return db
    .selectFrom('wallet_requests')
    .selectAll()
    .where('platform_id', '=', platformId)
    .where('target_id', '=', targetId)
    .where('operation', '=', operation)
    .orderBy('created_at', 'desc')
    .forUpdate()
    .executeTakeFirst();
}

export async function markRequestUsed(db: Db, id: string, at: Date, sessionId: string | null): Promise<void> {
  await db.updateTable('wallet_requests').set({ used_at: at, used_by_session_id: sessionId }).where('id', '=', id).where('used_at', 'is', null).execute();
}

/** Forgets requests past their expiry. */
export async function deleteExpiredRequests(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('wallet_requests').where('expires_at', '<', before).execute();
}

export async function insertEmail(db: Db, row: Insertable<WalletEmailTable>): Promise<void> {
  await db.insertInto('wallet_emails').values(row).execute();
}

/** The sandbox outbox: e-mails sent for one credential, oldest first (read by the test controls). */
export async function listEmails(db: Db, credentialId: string): Promise<WalletEmailRow[]> {
  return db.selectFrom('wallet_emails').selectAll().where('credential_id', '=', credentialId).orderBy('created_at').orderBy('id').execute();
}

/**
 * Takes one of the attempts of the credential's pending code, committed at once: the code's MAC to
 * judge the attempt against, or undefined when no code is pending, it was sent before `sentAfter`,
 * or its `max` attempts are taken. Atomic, so concurrent attempts never take more than `max`.
 */
export async function takeOtpAttempt(db: Db, platformId: string, credentialId: string, max: number, sentAfter: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('wallet_credentials')
    .set({ verify_failures: sql`verify_failures + 1` })
    .where('platform_id', '=', platformId)
    .where('id', '=', credentialId)
    .where('revoked_at', 'is', null)
    .where('otp_hash', 'is not', null)
    .where('otp_sent_at', '>', sentAfter)
    .where('verify_failures', '<', max)
    .returning('otp_hash')
    .executeTakeFirst();
  return row?.otp_hash ?? undefined;
}

/** A wrong code judged on the last of the code's `max` attempts voids it (still `otpHash`: no newer code was e-mailed since). */
export async function voidUsedUpOtp(db: Db, credentialId: string, otpHash: string, max: number): Promise<void> {
  await db.updateTable('wallet_credentials').set({ otp_hash: null }).where('id', '=', credentialId).where('otp_hash', '=', otpHash).where('verify_failures', '>=', max).execute();
}

/** Uses up the pending code if it is still `otpHash`; false when a concurrent verification took it. */
export async function consumeOtp(db: Db, credentialId: string, otpHash: string): Promise<boolean> {
  const row = await db.updateTable('wallet_credentials').set({ otp_hash: null }).where('id', '=', credentialId).where('otp_hash', '=', otpHash).returning('id').executeTakeFirst();
  return row !== undefined;
}
