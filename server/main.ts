// `npm start`: opens the database (PGlite on disk by default, PostgreSQL with DATABASE_URL),
// migrates it, makes sure a sandbox platform and its first API token exist, and serves the API.
import { pino } from 'pino';
import { createApp, BASE_PATH } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { bootstrapPlatform } from './platform/bootstrap.ts';
import { startWebhookDelivery } from './webhooks/delivery.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel });
const handle = await openDatabase(config);
await migrateToLatest(handle.db);
const boot = await bootstrapPlatform(handle.db, config);
if (boot.created !== undefined) {
  // Printed once, on the first start: the secret is not stored and cannot be shown again.
  process.stdout.write(
    `\nSandbox platform created. Its API token (MANAGE, TRANSACT, VIEW), shown only this once:\n` +
      `  clientId:     ${boot.created.clientId}\n  clientSecret: ${boot.created.clientSecret}\n\n`,
  );
}

const app = createApp({ db: handle.db, log, validateResponses: config.validateResponses });
const server = app.listen(config.port, config.host, () => {
  const url = `http://${config.host}:${config.port}`;
  log.info({ api: `${url}${BASE_PATH}`, docs: `${url}/docs`, database: handle.kind }, 'payments sandbox listening');
  process.stdout.write(`API ${url}${BASE_PATH}  docs ${url}/docs  database ${handle.kind}\n`);
});

const stopDelivery = startWebhookDelivery(handle.db, log);

const shutdown = () => {
  server.close(() => void stopDelivery().then(() => handle.close()).then(() => process.exit(0)));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
