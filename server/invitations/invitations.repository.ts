// Invitations are found by code whatever the platform: any platform reads and claims them.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { InvitationTable } from '../db/schema.ts';

export type InvitationRow = Selectable<InvitationTable>;

/** Inserts the invitation; undefined when its code is taken (the caller draws another). */
export async function insertInvitation(db: Db, row: Insertable<InvitationTable>): Promise<InvitationRow | undefined> {
  return db.insertInto('invitations').values(row).onConflict((oc) => oc.column('code').doNothing()).returningAll().executeTakeFirst();
}

export async function findInvitation(db: Db, code: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('code', '=', code).executeTakeFirst();
}

/** The invitation, locked until the end of the database transaction: one claim or cancel at a time. */
export async function findInvitationForUpdate(db: Db, code: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();
}

/** Moves a PENDING invitation on; undefined when it was no longer PENDING. */
export async function closeInvitation(
  db: Db,
  code: string,
  changes: Pick<Updateable<InvitationTable>, 'status' | 'invitee_uma' | 'claimed_by_platform_id' | 'claimed_at' | 'updated_at'>,
): Promise<InvitationRow | undefined> {
  return db.updateTable('invitations').set(changes).where('code', '=', code).where('status', '=', 'PENDING').returningAll().executeTakeFirst();
}
