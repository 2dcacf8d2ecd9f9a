// Server processes of a test's own on a new PostgreSQL database, already migrated
// (migrated-database.ts) unless asked `fromZero`: one master key and one bootstrap token shared by
// all, the first process bootstrapping before the next starts. For what only several processes on one database show (webhooks delivered once, a shared
// failed-authentication limit, idempotency across processes, the bank test, crash recovery).
// With `pooler`, the processes reach the database through PgBouncer in transaction mode
// (DATABASE_POOL_MODE=transaction), and listen on a direct connection (DATABASE_DIRECT_URL).
import { randomBytes } from 'node:crypto';
import { startPgbouncer, type Pooler, type PoolerOptions } from './pgbouncer.ts';
import { createMigratedDatabase } from './migrated-database.ts';
import { adminUrlOf, createDatabase } from './postgres-database.ts';
import { jsonHeaders, newCredentials, startServer, type ServerProcess } from './server-process.ts';

export interface Cluster {
  /** The database itself, past any pooler (what a test reads and checks). */
  databaseUrl: string;
  /** The pooler in front of the database, when the cluster was started with one. */
  pooler?: Pooler;
  token: ReturnType<typeof newCredentials>;
  /** The environment every process of the cluster starts with (start another with it). */
  env: NodeJS.ProcessEnv;
  servers: ServerProcess[];
  /** Stops every process (SIGTERM) and drops the database. */
  close(): Promise<void>;
}

/** The suite's PostgreSQL server when a test runs outside the contract project's global setup. */
export const postgresAdminUrl = (): string => adminUrlOf(process.env.CONTRACT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

export interface ClusterOptions {
  /** PgBouncer in transaction mode in front of the database, with this many server connections. */
  pooler?: PoolerOptions;
  /** An empty database, which the first process's start migrates. */
  fromZero?: boolean;
}

export async function startCluster(adminUrl: string, count: number, env: NodeJS.ProcessEnv = {}, options: ClusterOptions = {}): Promise<Cluster> {
  const database = options.fromZero === true ? await createDatabase(adminUrl, 'cluster') : await createMigratedDatabase(adminUrl, 'cluster');
  const token = newCredentials();
  const servers: ServerProcess[] = [];
  let pooler: Pooler | undefined;
  const close = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await pooler?.close();
    await database.drop();
  };
  try {
    pooler = options.pooler === undefined ? undefined : await startPgbouncer(adminUrl, options.pooler);
    const databaseEnv = pooler === undefined ? { DATABASE_URL: database.url } : { DATABASE_URL: pooler.urlOf(database.url), DATABASE_DIRECT_URL: database.url, DATABASE_POOL_MODE: 'transaction' };
    const clusterEnv = { ...databaseEnv, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'), PAYMENTS_CLIENT_ID: token.clientId, PAYMENTS_CLIENT_SECRET: token.clientSecret, ...env };
    for (let i = 0; i < count; i++) servers.push(await startServer(clusterEnv));
    return { databaseUrl: database.url, ...(pooler === undefined ? {} : { pooler }), token, env: clusterEnv, servers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `startCluster`, closed with the rest of a test file's `cleanups` (see file-cleanups.ts). */
export async function startClusterFor(cleanups: (() => Promise<unknown>)[], adminUrl: string, count: number, env: NodeJS.ProcessEnv = {}, options: ClusterOptions = {}): Promise<Cluster> {
  const started = await startCluster(adminUrl, count, env, options);
  cleanups.push(started.close);
  return started;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown> | undefined;
}

/** One JSON request with the cluster token's Basic credentials; the raw text is kept for byte comparisons. */
export async function call(server: ServerProcess, token: Cluster['token'], method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { ...jsonHeaders(token), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
