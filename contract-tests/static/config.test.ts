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
});
