// The one way an invitation leaves PENDING (claimed, cancelled, expired), for the service and the
// expiry job alike: along the state machine, on the row its caller has locked.
import type { ServiceContext } from '../context/context.ts';
import { assertTransition } from '../shared/state-machine.ts';
import { closeInvitation, type InvitationRow } from './invitations.repository.ts';

export async function closeLocked(ctx: ServiceContext, row: InvitationRow, changes: Parameters<typeof closeInvitation>[2]): Promise<InvitationRow> {
  if (changes.status !== undefined) assertTransition('InvitationStatus', row.status, changes.status);
  const closed = await closeInvitation(ctx.db, row.code, changes);
  // Locked by the caller, so nothing can have moved it meanwhile.
  if (closed === undefined) throw new Error(`invitation ${row.code} moved under its lock`);
  return closed;
}
