// Runtime configuration, read once from the environment and checked: a value the server cannot
// work with stops it at start with a message that says what to change, never later with a 500.
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/http-limits.ts';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** DATABASE_URL's connections: `session` (direct, or a session-mode pooler), or `transaction` (a transaction-mode pooler's). */
  databasePoolMode: 'session' | 'transaction';
  /** A direct connection, past any pooler, for what needs a session of its own (LISTEN). */
  databaseDirectUrl: string | undefined;
  /** PGlite data folder, or `memory://` for a throwaway in-memory database. */
  pgliteDataDir: string;
  /** Validate every response against the spec before its transaction commits (development and tests). */
  validateResponses: boolean;
  /**
   * Route, authenticate and validate requests with express-openapi-validator. Off only for
   * `npm run bench`, to measure what the validator costs; refused with NODE_ENV=production.
   */
  validateRequests: boolean;
  logLevel: string;
  /** Credentials of the first API token, used instead of random ones. */
  bootstrapCredentials: { clientId: string; clientSecret: string } | undefined;
  /** PAYMENTS_MASTER_KEY (32 bytes, base64 or hex), or undefined to use the key file. */
  masterKey: Buffer | undefined;
  /** Where the key is kept when not given: created on first start (an in-memory database gets a throwaway key). */
  masterKeyFile: string;
  /** Webhook endpoints on loopback or private addresses: on for the local sandbox, off in production. */
  allowPrivateWebhookTargets: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for a request's address (Express's 'trust proxy'):
   * false (the peer's address), true (any), a number of hops, or addresses, subnets and names.
   */
  trustProxy: boolean | number | string[];
  production: boolean;
  /** Test-only controls (moving the clock, fault injection): only with NODE_ENV=test. */
  testControls: boolean;
  /** A deliberate bug the reliability tests must catch (PAYMENTS_TEST_FAULT): refused unless NODE_ENV=test. */
  testFault: TestFault | undefined;
  /** The HTTP layer's timeouts and the bound on one client's connections (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS_PER_ADDRESS). */
  http: HttpLimits;
  /** How long a stop (SIGTERM, SIGINT) lets requests in flight finish before it closes their connections (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;

/**
 * The deliberate bugs: `lost-update` makes the ledger read a balance and then write the value it
 * computed (no conditional UPDATE), the read-modify-write race the bank test exists to catch.
 */
export const TEST_FAULTS = ['lost-update'] as const;
export type TestFault = (typeof TEST_FAULTS)[number];

function testFault(value: string | undefined, testControls: boolean, problems: string[]): TestFault | undefined {
  if (value === undefined || value === '') return undefined;
  // Anywhere but a test server it is refused outright, never silently ignored: a broken ledger must not start.
  if (!testControls) {
    problems.push('PAYMENTS_TEST_FAULT breaks the ledger on purpose and is accepted only with NODE_ENV=test; unset it.');
    return undefined;
  }
  const fault = TEST_FAULTS.find((f) => f === value);
  if (fault === undefined) problems.push(`PAYMENTS_TEST_FAULT must be one of ${TEST_FAULTS.join(', ')}, not "${value}".`);
  return fault;
}

export class ConfigError extends Error {}

/** The contract's formats (Token.clientId, Token.clientSecret): a token that breaks them could never be listed. */
const CLIENT_ID = /^[0-9a-f]{32}$/;
const CLIENT_SECRET = /^[\x21-\x7e]{32,128}$/;

function flag(name: string, value: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  problems.push(`${name} must be 1 or 0 (true or false), not "${value}".`);
  return fallback;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

function trustProxy(value: string | undefined, problems: string[]): Config['trustProxy'] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isProxyEntry(entry));
  if (wrong.length > 0) {
    problems.push(`TRUST_PROXY must be true, false, a number of proxies, or a comma-separated list of addresses, subnets (10.0.0.0/8) and ${PROXY_NAMES.join(', ')}; not ${wrong.map((w) => `"${w}"`).join(', ')}.`);
  }
  return entries;
}

/** setTimeout's longest delay: a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A whole number from 1 to `max`: no limit of the HTTP layer can be switched off. */
function positive(name: string, value: string | undefined, fallback: number, max: number, problems: string[]): number {
  if (value === undefined || value === '') return fallback;
  const number = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 1 && number <= max)) {
    problems.push(`${name} must be a whole number from 1 to ${max}, not "${value}".`);
    return fallback;
  }
  return number;
}

function httpLimits(env: NodeJS.ProcessEnv, problems: string[]): HttpLimits {
  const limits: HttpLimits = {
    maxHeaderSize: DEFAULT_HTTP_LIMITS.maxHeaderSize,
    headersTimeout: positive('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.headersTimeout, MAX_TIMER_MS, problems),
    requestTimeout: positive('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.requestTimeout, MAX_TIMER_MS, problems),
    keepAliveTimeout: positive('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, DEFAULT_HTTP_LIMITS.keepAliveTimeout, MAX_TIMER_MS, problems),
    maxConnectionsPerAddress: positive('MAX_CONNECTIONS_PER_ADDRESS', env.MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_HTTP_LIMITS.maxConnectionsPerAddress, 1_000_000, problems),
  };
  // Node refuses the pair otherwise: the headers are part of the request.
  if (limits.headersTimeout > limits.requestTimeout) problems.push(`HEADERS_TIMEOUT_MS (${limits.headersTimeout}) must not be longer than REQUEST_TIMEOUT_MS (${limits.requestTimeout}).`);
  return limits;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

function masterKey(value: string | undefined, problems: string[]): Buffer | undefined {
  if (value === undefined || value === '') return undefined;
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  if (BASE64_KEY.test(value)) return Buffer.from(value, 'base64');
  problems.push('PAYMENTS_MASTER_KEY must be 32 random bytes, as 64 hex digits or base64 (for example `openssl rand -base64 32`).');
  return undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (0 to 65535), not "${env.PORT}".`);

  const clientId = env.PAYMENTS_CLIENT_ID || undefined;
  const clientSecret = env.PAYMENTS_CLIENT_SECRET || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined)) problems.push('Set both PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET, or neither.');
  if (clientId !== undefined && !CLIENT_ID.test(clientId)) problems.push('PAYMENTS_CLIENT_ID must be 32 lowercase hex digits (for example `openssl rand -hex 16`).');
  if (clientSecret !== undefined && !CLIENT_SECRET.test(clientSecret)) {
    problems.push('PAYMENTS_CLIENT_SECRET must be 32 to 128 printable characters without spaces (for example `openssl rand -base64 32`).');
  }

  const databaseUrl = env.DATABASE_URL || undefined;
  const databaseDirectUrl = env.DATABASE_DIRECT_URL || undefined;
  const databasePoolMode = env.DATABASE_POOL_MODE || 'session';
  if (databasePoolMode !== 'session' && databasePoolMode !== 'transaction') problems.push(`DATABASE_POOL_MODE must be session or transaction, not "${databasePoolMode}".`);
  if (databaseUrl === undefined && (databaseDirectUrl !== undefined || databasePoolMode === 'transaction')) problems.push('DATABASE_POOL_MODE and DATABASE_DIRECT_URL are for PostgreSQL: set DATABASE_URL too.');
  const key = masterKey(env.PAYMENTS_MASTER_KEY, problems);
  if (production && key === undefined) problems.push('PAYMENTS_MASTER_KEY is required with NODE_ENV=production (32 random bytes, base64 or hex).');

  const pgliteDataDir = env.PGLITE_DATA_DIR || resolve(import.meta.dirname, '..', '.data', 'pglite');
  // The key lives beside the embedded database it protects; PostgreSQL's beside the project.
  const keyFileDir = databaseUrl === undefined && !pgliteDataDir.startsWith('memory://') ? dirname(resolve(pgliteDataDir)) : resolve(import.meta.dirname, '..', '.data');
  const config: Config = {
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl,
    databasePoolMode: databasePoolMode === 'transaction' ? 'transaction' : 'session',
    databaseDirectUrl,
    pgliteDataDir,
    validateResponses: flag('VALIDATE_RESPONSES', env.VALIDATE_RESPONSES, !production, problems),
    validateRequests: flag('VALIDATE_REQUESTS', env.VALIDATE_REQUESTS, true, problems),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    bootstrapCredentials: clientId !== undefined && clientSecret !== undefined ? { clientId, clientSecret } : undefined,
    masterKey: key,
    masterKeyFile: env.PAYMENTS_MASTER_KEY_FILE || join(keyFileDir, 'master.key'),
    allowPrivateWebhookTargets: flag('WEBHOOK_ALLOW_PRIVATE_TARGETS', env.WEBHOOK_ALLOW_PRIVATE_TARGETS, !production, problems),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    production,
    testControls: env.NODE_ENV === 'test',
    testFault: testFault(env.PAYMENTS_TEST_FAULT, env.NODE_ENV === 'test', problems),
    http: httpLimits(env, problems),
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, DEFAULT_SHUTDOWN_TIMEOUT_MS, MAX_TIMER_MS, problems),
  };
  if (production && !config.validateRequests) problems.push('VALIDATE_REQUESTS=0 is for benchmarks only; NODE_ENV=production always validates requests.');
  if (problems.length > 0) throw new ConfigError(`The server cannot start:\n  - ${problems.join('\n  - ')}`);
  return config;
}
