// Prints how many contract tests were skipped as server-only (itServer / describeServer /
// itPostgres) against the current target, so a run on the mock says what it did not check.
import type { Reporter, TestModule } from 'vitest/node';

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
      const why = target === 'prism' ? 'they need state the mock cannot keep (server-only)' : 'they need another target (PostgreSQL concurrency or the embedded database)';
      console.log(`contract suite on ${target}: ${ran} tests ran, ${skipped} skipped because ${why}`);
    }
  }
}
