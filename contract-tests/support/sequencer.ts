// The order the contract files start in: the longest ones on the pglite target first, so they run
// alongside everything else instead of on their own at the end. Vitest's own order (longest first
// by its last run) cannot know them: it remembers the last run of whichever target, on which these
// may have been skipped, and a fresh clone has no record at all (then it goes by file size).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = [
  'contract-tests/api/conformance-kit.test.ts',
  'contract-tests/api/fuzz.test.ts',
  'contract-tests/server/life-cycle.test.ts',
  'contract-tests/server/transfer-outcomes.test.ts',
  'contract-tests/server/payment-webhooks.test.ts',
  'contract-tests/server/quote-outcomes.test.ts',
  'contract-tests/server/clock.test.ts',
  'contract-tests/api/quotes.test.ts',
  'contract-tests/api/transfers.test.ts',
  'contract-tests/api/client-examples.test.ts',
  'contract-tests/api/auth-matrix.test.ts',
  // reliability-load runs two files at a time: the pooler's (its own bank seed, races and kill -9
  // behind PgBouncer), about as long as the other three together, first; then the bank test.
  'contract-tests/reliability/pooler.test.ts',
  'contract-tests/reliability/bank.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const at = FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return at === -1 ? FIRST.length : at;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted.filter((spec) => rank(spec) < FIRST.length).sort((a, b) => rank(a) - rank(b));
    return [...first, ...sorted.filter((spec) => rank(spec) === FIRST.length)];
  }
}
