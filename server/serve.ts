// The server, as `npm start` runs it (through main.ts): checks the configuration, boots (database,
// migrations, master key), starts listening (so a busy port stops the start before anything is
// created), makes sure a sandbox platform and its first API token exist, and runs the background
// jobs. Anything that prevents a correct start stops it with a message saying what to change.
import { createServer } from 'node:http';
import { pino } from 'pino';
import { createApp, BASE_PATH } from './app.ts';
import { boot } from './boot.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { unitOfWork } from './db/unit-of-work.ts';
import { housekeepingJob } from './housekeeping/housekeeping.jobs.ts';
import { jobKinds } from './job-kinds.ts';
import { JobRunner } from './jobs/runner.ts';
import { scheduleRecurringJob } from './jobs/schedule.ts';
import { WrongKeyError } from './keys/keys.service.ts';
import { BootstrapError, bootstrapPlatform } from './platform/platform.service.ts';

/** A refusal to start: its message is for the person starting the server, not a stack trace. */
function refuse(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

const expected = (err: unknown) => err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof WrongKeyError || err instanceof BootstrapError;

try {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const { handle, runtime, keySource, setWake, close } = await boot(config, log);
  if (config.testFault !== undefined) log.warn({ testFault: config.testFault }, 'PAYMENTS_TEST_FAULT: the ledger is broken on purpose (NODE_ENV=test only)');

  // Listening before the bootstrap: on a busy port nothing is created and no token is used up.
  const server = createServer(createApp({ runtime, db: handle.db, validateResponses: config.validateResponses, validateRequests: config.validateRequests, testControls: config.testControls }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: NodeJS.ErrnoException) => {
    await close();
    refuse(
      err.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use: stop what uses it, or start with another PORT.`
        : `Cannot listen on ${config.host}:${config.port}: ${err.message}`,
    );
  });

  const bootstrap = await unitOfWork(runtime, handle.db, (ctx) => bootstrapPlatform(ctx, config.bootstrapCredentials)).catch(async (err: unknown) => {
    await close();
    throw err;
  });
  if (bootstrap.created !== undefined) {
    // Printed once, on the first start: the secret is not stored and cannot be shown again.
    process.stdout.write(
      `\nSandbox platform created. Its API token (MANAGE, TRANSACT, VIEW), shown only this once:\n` +
        `  clientId:     ${bootstrap.created.clientId}\n  clientSecret: ${bootstrap.created.clientSecret}\n\n`,
    );
  }

  const runner = new JobRunner(runtime, handle.db, jobKinds);
  setWake(() => runner.wake());
  await unitOfWork(runtime, handle.db, (ctx) => scheduleRecurringJob(ctx, housekeepingJob, {}));
  runner.start();

  const url = `http://${config.host}:${config.port}`;
  log.info({ api: `${url}${BASE_PATH}`, docs: `${url}/docs`, database: handle.kind, masterKey: keySource }, 'payments sandbox listening');
  process.stdout.write(`API ${url}${BASE_PATH}  docs ${url}/docs  database ${handle.kind}\n`);

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => void runner.stop().then(close).then(() => process.exit(0)));
    // Idle keep-alive connections would hold close() open.
    server.closeIdleConnections();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (err) {
  if (expected(err)) refuse((err as Error).message);
  throw err;
}
