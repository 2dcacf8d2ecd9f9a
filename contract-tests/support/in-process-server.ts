// A server started inside the test file's own process, by the function `npm start` runs
// (server/server.ts), for files that need a server of their own (to move its clock, change its
// configuration) but nothing of a process: it skips node's start and reuses the modules the worker
// has loaded, PGlite's compiled WebAssembly included (about 0.6 CPU-seconds a start against 2 to
// 2.5 for a process). Tests about the process itself (restarts, refusals at start, signals, two
// processes on one database) spawn one instead (server-process.ts).
import { pino } from 'pino';
import { loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/server.ts';
import { serverEnv } from './server-process.ts';

export interface TestServer {
  port: number;
  origin: string;
  /** The API base URL, with the version segment. */
  baseUrl: string;
  /** What the server logged (warnings and errors at the tests' log level). */
  output(): string;
  stop(): Promise<unknown>;
}

/** Starts a server in this process on a free port, with the environment a spawned test server gets. */
export async function startInProcess(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const config = loadConfig(serverEnv({ ...env, PORT: '0' }));
  let log = '';
  const logger = pino({ level: config.logLevel }, { write: (line: string) => void (log = (log + line).slice(-50_000)) });
  const server = await startServer(config, logger);
  let stopped: Promise<void> | undefined;
  return {
    port: server.port,
    origin: server.origin,
    baseUrl: `${server.origin}/2025-10-13`,
    output: () => log,
    stop: () => (stopped ??= server.close()),
  };
}
