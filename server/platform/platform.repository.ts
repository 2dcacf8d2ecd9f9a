import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { firstRow, queryTemplate } from '../db/query-template.ts';
import type { PlatformTable } from '../db/schema.ts';
import { SEALED_PREFIX } from '../shared/keyring.ts';

export type PlatformRow = Selectable<PlatformTable>;

export async function findAnyPlatform(db: Db): Promise<PlatformRow | undefined> {
  return db.selectFrom('platforms').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
}

const platformById = queryTemplate<{ id: string }, PlatformRow>((db, p) => db.selectFrom('platforms').selectAll().where('id', '=', p.id));

export async function findPlatform(db: Db, id: string): Promise<PlatformRow | undefined> {
  return firstRow(db, platformById, { id });
}

/** Reads the platform with a row lock: concurrent configuration changes apply one after the other. */
export async function findPlatformForUpdate(db: Db, id: string): Promise<PlatformRow | undefined> {
  return db.selectFrom('platforms').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findPlatformUmaDomain(db: Db, platformId: string): Promise<string> {
  const row = await db.selectFrom('platforms').select('uma_domain').where('id', '=', platformId).executeTakeFirstOrThrow();
  return row.uma_domain;
}

export async function insertPlatform(db: Db, row: PlatformRow): Promise<PlatformRow> {
  return db
    .insertInto('platforms')
    .values({ ...row, supported_currencies: JSON.stringify(row.supported_currencies), fee_configs: JSON.stringify(row.fee_configs) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type PlatformChanges = Partial<Pick<PlatformRow, 'name' | 'uma_domain' | 'webhook_endpoint' | 'webhook_signing_secret' | 'supported_currencies' | 'fee_configs'>>;

export async function updatePlatform(db: Db, id: string, changes: PlatformChanges, at: Date): Promise<PlatformRow> {
  const { supported_currencies, fee_configs, ...rest } = changes;
  return db
    .updateTable('platforms')
    .set({
      ...rest,
      ...(supported_currencies === undefined ? {} : { supported_currencies: JSON.stringify(supported_currencies) }),
      ...(fee_configs === undefined ? {} : { fee_configs: JSON.stringify(fee_configs) }),
      updated_at: at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Signing secrets stored before they were sealed (see platform.service sealLegacySecrets). */
export async function listUnsealedSigningSecrets(db: Db): Promise<{ id: string; secret: string }[]> {
  const rows = await db.selectFrom('platforms').select(['id', 'webhook_signing_secret']).where('webhook_signing_secret', 'not like', `${SEALED_PREFIX}%`).execute();
  return rows.flatMap((r) => (r.webhook_signing_secret === null ? [] : [{ id: r.id, secret: r.webhook_signing_secret }]));
}

export async function setSigningSecret(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('platforms').set({ webhook_signing_secret: sealed }).where('id', '=', id).execute();
}
