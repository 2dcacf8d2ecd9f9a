// `npm start`: the server process. It checks the configuration, starts the server (server.ts),
// prints the first API token when this start created it, and stops cleanly on SIGINT and SIGTERM,
// within its deadline whatever is still running.
// Anything that prevents a correct start stops it with a message saying what to change.
//
// Node's compile cache keeps every module compiled (and its types stripped) on disk, so a restart
// skips that work (bench/README.md). It applies only to modules loaded after it is on, so the
// server's modules are imported once it is.
import { writeSync } from 'node:fs';
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { isStartRefusal, startServer } = await import('./server.ts');
const { BASE_PATH } = await import('./app.ts');
const { loadConfig } = await import('./config.ts');
const { pino } = await import('pino');

/** What a stop may take after the requests' deadline: the jobs' and the database's ends. */
const AFTER_DEADLINE_MS = 5_000;

/** A refusal to start: its message is for the person starting the server, not a stack trace. */
function refuse(message: string): never {
  // Written before exit(): on a pipe (a process manager, a test harness) process.stderr.write
  // may only queue the text, and exit() would drop it.
  const text = Buffer.from(`\n${message}\n\n`);
  let written = 0;
  try {
    while (written < text.length) written += writeSync(process.stderr.fd, text, written);
  } catch {
    process.stderr.write(text.subarray(written));
  }
  process.exit(1);
}

try {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const server = await startServer(config, log);
  if (server.created !== undefined) {
    // Printed once, on the first start: the secret is not stored and cannot be shown again.
    process.stdout.write(
      `\nSandbox platform created. Its API token (MANAGE, TRANSACT, VIEW), shown only this once:\n` +
        `  clientId:     ${server.created.clientId}\n  clientSecret: ${server.created.clientSecret}\n\n`,
    );
  }
  log.info({ api: `${server.origin}${BASE_PATH}`, docs: `${server.origin}/docs`, database: server.database, masterKey: server.keySource }, 'payments sandbox listening');
  process.stdout.write(`API ${server.origin}${BASE_PATH}  docs ${server.origin}/docs  database ${server.database}\n`);

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    // close() closes the connections left at the deadline; what comes after it (a job finishing, the
    // database's sessions ending) gets a little more, and then the process ends regardless.
    const overdue = setTimeout(() => {
      log.error({ shutdownTimeoutMs: config.shutdownTimeoutMs }, 'the stop did not finish in time: exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs + AFTER_DEADLINE_MS);
    overdue.unref();
    void server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'the stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (err) {
  if (isStartRefusal(err)) refuse(err.message);
  throw err;
}
