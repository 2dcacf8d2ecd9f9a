import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import LongestFirst from './support/sequencer.ts';
import { TEST_PROCESS_FLAGS } from './support/test-process-flags.ts';

const RELIABILITY_LOAD = ['bank', 'pooler', 'idempotency-races', 'crash-recovery', 'security-limits'].map((name) => `contract-tests/reliability/${name}.test.ts`);

// Lives in contract-tests/ (the top level holds only what the package layout names); paths are
// relative to the repository root.
export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  test: {
    reporters: ['default', './contract-tests/support/contract-reporter.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'static',
          include: ['contract-tests/static/**/*.test.ts'],
          // Vitest's default is one worker less than the cores: one file at a time on a 2-core
          // machine. Files share nothing (scratch folders of their own, port 0) and several wait on
          // processes they start (redocly, tsc, npm): two side by side use both cores.
          maxWorkers: 2,
          // A process per file: some files need modules as they were before another file used
          // them (parameter-parsing-memo.test.ts: the validator before the app patches it;
          // bench/README.md).
          testTimeout: 60_000,
          typecheck: { enabled: true, include: ['contract-tests/static/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        test: {
          name: 'contract',
          include: ['contract-tests/api/**/*.test.ts', 'contract-tests/server/**/*.test.ts'],
          globalSetup: ['contract-tests/support/global-setup.ts'],
          // Files run side by side, beyond the core count, as part of a file's time is spent
          // waiting (servers of its own starting, the server's answers), but no further: each
          // worker loads and optimizes the same modules (the client, the validator, an in-process
          // server and PGlite) on its own, and outcomes due later come from the sandbox clock, not
          // waits. Measured on 2 cores (bench/README.md), 4 workers take less time and CPU than 8 on
          // PGlite, and than 3 or 2 on PostgreSQL, where more would also exceed a default
          // PostgreSQL's 100 connections (each server process holds a pool of up to 10 and a
          // listening session; "sorry, too many clients already").
          maxWorkers: 4,
          // A worker keeps the modules it has loaded (the client, the validator and its compiled
          // schemas, the spec) from one file to the next instead of loading them again for each:
          // no contract test changes module state (no mocks, no stubbed globals).
          isolate: false,
          execArgv: TEST_PROCESS_FLAGS,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The conformance kit's proofs (npm run test:conformance, in .ci/run): the packed kit against
        // the sandbox server on PostgreSQL, the Prism mock and implementations broken on purpose.
        // One file at a time: they share the server and its platform's webhook endpoint.
        test: {
          name: 'conformance',
          include: ['contract-tests/conformance/**/*.test.ts'],
          globalSetup: ['contract-tests/conformance/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Fault and security tests on the machine's PostgreSQL, each file with servers of its own,
        // that measure times (a wrong secret's, a served request's under a flood, the slowest write
        // under faults, a revocation's wait): one file at a time, so no file's load slows another's
        // measurements (`.ci/run` only, after reliability-load).
        test: {
          name: 'reliability',
          include: ['contract-tests/reliability/**/*.test.ts'],
          exclude: RELIABILITY_LOAD,
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The load tests (the bank test, the idempotency races, kill -9 under load, the same through
        // PgBouncer, the security limits under concurrent attempts): they measure no time, only what the load leaves behind, and each holds the
        // CPU only part of its time (a run settling, servers starting, a cluster being built): two
        // files side by side, each on a database and servers of its own. More load at once only
        // makes more requests meet.
        test: {
          name: 'reliability-load',
          include: RELIABILITY_LOAD,
          maxWorkers: 2,
          testTimeout: 600_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
