// `npm run platform:create [name]`: adds a sandbox platform to the database the server uses
// (DATABASE_URL, or the PGlite data folder: stop the server first, PGlite allows one process) and
// prints its API token, once.
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createSandboxPlatform } from '../server/platform/bootstrap.ts';

const name = process.argv[2] ?? 'Sandbox platform';
const handle = await openDatabase(loadConfig());
try {
  await migrateToLatest(handle.db);
  const created = await handle.db.transaction().execute((trx) => createSandboxPlatform(trx, name));
  process.stdout.write(`Sandbox platform "${name}" created. Its API token (MANAGE, TRANSACT, VIEW), shown only this once:\n  clientId:     ${created.clientId}\n  clientSecret: ${created.clientSecret}\n`);
} finally {
  await handle.close();
}
