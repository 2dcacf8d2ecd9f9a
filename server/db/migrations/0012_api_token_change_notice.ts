// The per-process credential caches drop a token that the API revokes before the revocation
// answers (tokens/shared-credential-cache.ts). A token changed any other way (by hand in SQL, or by
// a process of a version without the caches during a rolling upgrade) would otherwise stay usable
// from a cache until its entry expired, a minute later. The database itself now announces every
// change that matters to a token, on the caches' channel ('credential_cache'), when it commits:
// deleted, its secret, permissions, platform or clientId changed. Other updates (a name) announce
// nothing, so they do not empty the caches.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function announce_api_token_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('credential_cache', 'changed - ' || old.client_id);
      return null;
    end $$`.execute(db);
  await sql`create trigger api_tokens_deleted_notice after delete on api_tokens
    for each row execute function announce_api_token_change()`.execute(db);
  await sql`create trigger api_tokens_changed_notice after update on api_tokens
    for each row when (
      old.deleted_at is distinct from new.deleted_at or old.secret_hash is distinct from new.secret_hash
      or old.permissions is distinct from new.permissions or old.platform_id is distinct from new.platform_id
      or old.client_id is distinct from new.client_id
    ) execute function announce_api_token_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger api_tokens_changed_notice on api_tokens`.execute(db);
  await sql`drop trigger api_tokens_deleted_notice on api_tokens`.execute(db);
  await sql`drop function announce_api_token_change()`.execute(db);
}
