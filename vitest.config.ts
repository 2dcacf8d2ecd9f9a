import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './contract-tests/support/server-only-reporter.ts'],
    projects: [
      {
        test: {
          name: 'static',
          include: ['contract-tests/static/**/*.test.ts'],
          testTimeout: 60_000,
          typecheck: { enabled: true, include: ['contract-tests/static/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        test: {
          name: 'contract',
          include: ['contract-tests/api/**/*.test.ts', 'contract-tests/server/**/*.test.ts'],
          globalSetup: ['contract-tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
