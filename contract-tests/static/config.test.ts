// The server's configuration refuses what would weaken a production server.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('validates requests unless told not to, and never skips validation with NODE_ENV=production', () => {
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_MASTER_KEY: MASTER_KEY }).validateRequests).toBe(true);
    expect(loadConfig({ NODE_ENV: 'benchmark', VALIDATE_REQUESTS: '0' }).validateRequests).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_MASTER_KEY: MASTER_KEY, VALIDATE_REQUESTS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_MASTER_KEY: MASTER_KEY, VALIDATE_REQUESTS: '0' })).toThrow(/benchmarks only/);
  });

  it('reads TRUST_PROXY as Express does, and refuses what it could not use', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8,192.0.2.7' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    for (const wrong of ['yes', '10.0.0.0/33', '10.0.0/8', 'localhost', '::1/129', '1,2']) {
      expect(() => loadConfig({ TRUST_PROXY: wrong }), wrong).toThrow(/TRUST_PROXY must be/);
    }
  });

  it('reads the HTTP layer\'s timeouts, connection bound and stop deadline, and refuses a value that would switch one off', () => {
    expect(loadConfig({}).http).toMatchObject({ headersTimeout: 60_000, requestTimeout: 300_000, keepAliveTimeout: 65_000, maxConnectionsPerAddress: 256 });
    expect(loadConfig({}).shutdownTimeoutMs).toBe(5_000);
    const set = loadConfig({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '3000', MAX_CONNECTIONS_PER_ADDRESS: '10', SHUTDOWN_TIMEOUT_MS: '1500' });
    expect(set.http).toMatchObject({ headersTimeout: 1_000, requestTimeout: 2_000, keepAliveTimeout: 3_000, maxConnectionsPerAddress: 10 });
    expect(set.shutdownTimeoutMs).toBe(1_500);
    for (const [name, wrong] of [['REQUEST_TIMEOUT_MS', '0'], ['HEADERS_TIMEOUT_MS', '-1'], ['KEEP_ALIVE_TIMEOUT_MS', '0'], ['MAX_CONNECTIONS_PER_ADDRESS', '1e3'], ['SHUTDOWN_TIMEOUT_MS', '2147483648'], ['REQUEST_TIMEOUT_MS', 'soon']] as const) {
      expect(() => loadConfig({ [name]: wrong }), `${name}=${wrong}`).toThrow(new RegExp(`${name} must be a whole number`));
    }
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '3000', REQUEST_TIMEOUT_MS: '2000' })).toThrow(/must not be longer than REQUEST_TIMEOUT_MS/);
  });

  it('reads DATABASE_POOL_MODE and DATABASE_DIRECT_URL, which only mean something with DATABASE_URL', () => {
    const url = 'postgres://app@pooler:6432/payments';
    const direct = 'postgres://app@db:5432/payments';
    expect(loadConfig({ DATABASE_URL: url })).toMatchObject({ databasePoolMode: 'session', databaseDirectUrl: undefined });
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: direct })).toMatchObject({ databasePoolMode: 'transaction', databaseDirectUrl: direct });
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'statement' })).toThrow(/DATABASE_POOL_MODE must be session or transaction, not "statement"/);
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'transaction' })).toThrow(/set DATABASE_URL too/);
    expect(() => loadConfig({ DATABASE_DIRECT_URL: direct })).toThrow(/set DATABASE_URL too/);
  });
});
