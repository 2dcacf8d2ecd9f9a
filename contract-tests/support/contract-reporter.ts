// After a contract run, prints how many tests were skipped as server-only (itServer /
// describeServer / itPostgres) against the target, so a run on the mock says what it did not
// check, and, on a real server, which documented statuses of implemented operations no test
// produced; on PGlite, behind the Prism proxy, what Prism checked and found.
import type { Reporter, TestModule } from 'vitest/node';
import { statusCoverage } from './observed-statuses.ts';
import { proxySummary } from './proxy-tally.ts';

export default class ServerOnlyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const target = process.env.CONTRACT_TARGET ?? 'pglite';
    let ran = 0;
    let skipped = 0;
    for (const module of testModules) {
      if (module.project.name !== 'contract') continue;
      for (const test of module.children.allTests()) {
        if (test.result().state === 'skipped') skipped++;
        else ran++;
      }
    }
    if (ran + skipped > 0) {
      const why =
        target === 'prism'
          ? 'they need state the mock cannot keep (server-only)'
          : 'they need another target (PostgreSQL concurrency or the embedded database)';
      console.log(`contract suite on ${target}: ${ran} tests ran, ${skipped} skipped because ${why}`);
      if (target !== 'prism') {
        const coverage = statusCoverage(target);
        console.log(`documented statuses of implemented operations produced by the suite: ${coverage.observed} of ${coverage.documented}`);
        // 5xx needs an injected fault; listed apart so the 4xx gaps stand out.
        const serverErrors = coverage.missing.filter((m) => / 5\d\d$/.test(m));
        const others = coverage.missing.filter((m) => !/ 5\d\d$/.test(m));
        // A run of a few files leaves most pairs unseen; the list is only worth reading for a full run.
        if (others.length > 0) console.log(`  never produced: ${others.length <= 20 ? others.join(', ') : `${others.length} pairs (run the whole suite to see them)`}`);
        if (serverErrors.length > 0) console.log(`  and ${serverErrors.length} documented 5xx statuses, which need an injected fault`);
      }
      if (target === 'pglite') for (const line of proxySummary()) console.log(line);
    }
  }
}
