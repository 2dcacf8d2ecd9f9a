// `npm run db:migrate`: applies pending migrations to the database the server uses (DATABASE_URL,
// or the PGlite data folder: stop the server first, PGlite allows one process). The server also
// migrates at every start.
import { pino } from 'pino';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';

const handle = await openDatabase(loadConfig(), pino({ level: 'warn' }));
try {
  const applied = await migrateToLatest(handle.db, handle.poolMode);
  console.log(applied.length === 0 ? 'database is up to date' : applied.join('\n'));
} finally {
  await handle.close();
}
