// Starting a server: boots (database, migrations, master key), starts listening (so a busy port
// stops the start before anything is created), makes sure a sandbox platform and its first API
// token exist, and runs the background jobs; `close` undoes it all, in the reverse order. Used by
// `npm start` (main.ts, which adds the process's signals and messages) and by tests that run a
// server of their own inside their process.
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { closeWithin, createHttpServer } from './http/http-server.ts';
import { boot } from './boot.ts';
import { ConfigError, type Config } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { unitOfWork } from './context/unit-of-work.ts';
import { housekeepingJob } from './housekeeping/housekeeping.jobs.ts';
import { jobKinds } from './job-kinds.ts';
import { JobRunner } from './jobs/runner.ts';
import { scheduleRecurringJob } from './jobs/schedule.ts';
import { WrongKeyError } from './keys/keys.service.ts';
import { BootstrapError, bootstrapPlatform } from './platform/platform.service.ts';

/** The port cannot be listened on: nothing was created. */
export class ListenError extends Error {}

/** A start refused for a reason the person starting the server can fix: its message says what to change. */
export const isStartRefusal = (err: unknown): err is Error =>
  err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof WrongKeyError || err instanceof BootstrapError || err instanceof ListenError;

export interface StartedServer {
  /** `http://host:port`, with the port listened on (PORT=0 picks a free one). */
  origin: string;
  port: number;
  database: 'postgres' | 'pglite';
  keySource: string;
  /** The first API token, when this start created the sandbox platform: its secret is shown nowhere else. */
  created: { clientId: string; clientSecret: string } | undefined;
  /**
   * Stops listening, lets requests in flight finish for up to the configured shutdown timeout,
   * closes the connections left, stops the jobs and closes the database.
   */
  close(): Promise<void>;
}

export async function startServer(config: Config, log: Logger): Promise<StartedServer> {
  const { handle, runtime, keySource, setJobRunner, close } = await boot(config, log);
  if (config.testFault !== undefined) log.warn({ testFault: config.testFault }, 'PAYMENTS_TEST_FAULT: the ledger is broken on purpose (NODE_ENV=test only)');

  // Listening before the bootstrap: on a busy port nothing is created and no token is used up.
  const app = createApp({ runtime, db: handle.db, validateResponses: config.validateResponses, validateRequests: config.validateRequests, trustProxy: config.trustProxy, testControls: config.testControls });
  const server = createHttpServer(app, config.http);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: NodeJS.ErrnoException) => {
    await close();
    throw new ListenError(
      err.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use: stop what uses it, or start with another PORT.`
        : `Cannot listen on ${config.host}:${config.port}: ${err.message}`,
    );
  });
  const stopListening = () => closeWithin(server, config.shutdownTimeoutMs);

  const bootstrap = await unitOfWork(runtime, handle.db, (ctx) => bootstrapPlatform(ctx, config.bootstrapCredentials)).catch(async (err: unknown) => {
    await stopListening();
    await close();
    throw err;
  });

  const runner = new JobRunner(runtime, handle.db, jobKinds);
  setJobRunner(runner);
  await unitOfWork(runtime, handle.db, (ctx) => scheduleRecurringJob(ctx, housekeepingJob, {}));
  runner.start();

  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${config.host}:${port}`,
    port,
    database: handle.kind,
    keySource,
    created: bootstrap.created,
    async close() {
      await stopListening();
      await runner.stop();
      await close();
    },
  };
}
