// The deliberately broken ledger of the reliability tests (PAYMENTS_TEST_FAULT) can never run
// outside a test server: the configuration refuses it, only the configuration reads it, and only
// boot.ts acts on it, by giving the ledger another balance writer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

const KEY = 'a'.repeat(64);

describe('PAYMENTS_TEST_FAULT', () => {
  it('stops a production or development start with a message, instead of running a broken ledger', () => {
    for (const NODE_ENV of ['production', 'development', undefined]) {
      const start = () => loadConfig({ NODE_ENV, PAYMENTS_MASTER_KEY: KEY, PAYMENTS_TEST_FAULT: 'lost-update' });
      expect(start, String(NODE_ENV)).toThrow(ConfigError);
      expect(start, String(NODE_ENV)).toThrow(/PAYMENTS_TEST_FAULT .* only with NODE_ENV=test/);
    }
  });

  it('is taken only by a test server, and only with a known fault', () => {
    expect(loadConfig({ NODE_ENV: 'test', PAYMENTS_TEST_FAULT: 'lost-update' }).testFault).toBe('lost-update');
    expect(() => loadConfig({ NODE_ENV: 'test', PAYMENTS_TEST_FAULT: 'drop-tables' })).toThrow(/must be one of lost-update/);
    expect(loadConfig({ NODE_ENV: 'test' }).testFault).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_MASTER_KEY: KEY, PAYMENTS_TEST_FAULT: '' }).testFault).toBeUndefined();
  });

  it('is read from the environment by config.ts alone (everything else gets it from the checked settings)', () => {
    const server = resolve(import.meta.dirname, '..', '..', 'server');
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
    const readers = files(server).filter((f) => /\.PAYMENTS_TEST_FAULT\b|\[['"`]PAYMENTS_TEST_FAULT/.test(readFileSync(f, 'utf8'))).map((f) => relative(server, f));
    expect(readers).toEqual(['config.ts']);
    // boot.ts gives the ledger the broken balance writer from the checked configuration; nothing else
    // chooses it, and the money path has no branch for it.
    expect(readFileSync(join(server, 'boot.ts'), 'utf8')).toContain("balanceWriter: config.testFault === 'lost-update' ? lostUpdateBalanceWriter : conditionalBalanceWriter");
    const choosers = files(server).filter((f) => /\blostUpdateBalanceWriter\b/.test(readFileSync(f, 'utf8'))).map((f) => relative(server, f));
    expect(choosers.sort()).toEqual(['boot.ts', 'ledger/lost-update.repository.ts']);
    // The money path: the ledger and the payments layer, but for the broken writer itself.
    const moneyPath = files(server).filter((f) => /^(ledger|payments)\//.test(relative(server, f)) && !f.endsWith('lost-update.repository.ts'));
    expect(moneyPath.length).toBeGreaterThan(5);
    expect(moneyPath.filter((f) => /testFault|PAYMENTS_TEST_FAULT|settings\./.test(readFileSync(f, 'utf8'))).map((f) => relative(server, f))).toEqual([]);
  });
});
