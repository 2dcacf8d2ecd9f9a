// Runtime configuration, read once from the environment.
import { resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** PGlite data folder, or `memory://` for a throwaway in-memory database. */
  pgliteDataDir: string;
  /** Validate every response against the spec (development and tests). */
  validateResponses: boolean;
  logLevel: string;
  /** Credentials of the first API token, used instead of random ones on first start. */
  bootstrapClientId: string | undefined;
  bootstrapClientSecret: string | undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  return {
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 3000),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDataDir: env.PGLITE_DATA_DIR ?? resolve(import.meta.dirname, '..', '.data', 'pglite'),
    validateResponses: env.VALIDATE_RESPONSES === undefined ? !production : env.VALIDATE_RESPONSES !== '0',
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    bootstrapClientId: env.PAYMENTS_CLIENT_ID || undefined,
    bootstrapClientSecret: env.PAYMENTS_CLIENT_SECRET || undefined,
  };
}
