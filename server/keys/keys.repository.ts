// The fingerprint of the master key a database was first used with.
import type { Db } from '../db/database.ts';

export async function findKeyFingerprint(db: Db): Promise<string | undefined> {
  return (await db.selectFrom('encryption_key_check').select('fingerprint').where('id', '=', 1).executeTakeFirst())?.fingerprint;
}

export async function insertKeyFingerprint(db: Db, fingerprint: string, at: Date): Promise<void> {
  await db.insertInto('encryption_key_check').values({ id: 1, fingerprint, created_at: at }).onConflict((oc) => oc.column('id').doNothing()).execute();
}
