// `npm run platform:create [name]`: adds a sandbox platform to the database the server uses
// (DATABASE_URL, or the PGlite data folder: stop the server first, PGlite allows one process) and
// prints its API token, once.
import { pino } from 'pino';
import { boot } from '../server/boot.ts';
import { loadConfig } from '../server/config.ts';
import { unitOfWork } from '../server/context/unit-of-work.ts';
import { createSandboxPlatform } from '../server/platform/platform.service.ts';

const name = process.argv[2] ?? 'Sandbox platform';
const config = loadConfig();
const { handle, runtime, close } = await boot(config, pino({ level: 'warn' }));
try {
  const created = await unitOfWork(runtime, handle.db, (ctx) => createSandboxPlatform(ctx, name));
  process.stdout.write(`Sandbox platform "${name}" created. Its API token (MANAGE, TRANSACT, VIEW), shown only this once:\n  clientId:     ${created.clientId}\n  clientSecret: ${created.clientSecret}\n`);
} finally {
  await close();
}
