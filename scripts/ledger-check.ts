// `npm run ledger:check`: recomputes every balance from the ledger's entries on the database the
// server uses (DATABASE_URL, or the PGlite data folder: stop the server first, PGlite allows one
// process) and prints the report as JSON. Exits 1 when anything differs.
import { pino } from 'pino';
import { boot } from '../server/boot.ts';
import { loadConfig } from '../server/config.ts';
import { checkLedger } from '../server/ledger/ledger-check.ts';

const { handle, close } = await boot(loadConfig(), pino({ level: 'warn' }));
try {
  const report = await checkLedger(handle.db);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (!report.consistent) process.exitCode = 1;
} finally {
  await close();
}
