// The kit, installed from the packed tarball, against the sandbox server on PostgreSQL (a separate
// process without test controls): every check passes, the one of a quote that completes 6 minutes
// later too, without --wait-minutes (the kit advances the platform's sandbox clock instead of
// waiting), and the JUnit report says the same, with each operation's score.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { runKit } from './run-kit.ts';

const stage = inject('conformance');

it('every check passes against the sandbox server on PostgreSQL; the report is JUnit XML', async () => {
  const report = join(stage.project, 'conformance.xml');
  const run = await runKit(stage, stage.baseUrl, ['--quiet', '--report', report, '--other-client-id', stage.otherClientId, '--other-client-secret', stage.otherClientSecret], 12 * 60_000);
  console.log(`conformance kit against the sandbox server on PostgreSQL: ${run.stdout.trimEnd().split('\n').at(-1)} in ${(run.ms / 1000).toFixed(1)} s`);
  expect(run.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.summary?.failed).toBe(0);
  expect(run.summary?.skipped).toBe(0);
  expect(run.summary?.passed).toBeGreaterThanOrEqual(731);
  // Every operation scores all the checks that apply to it.
  expect(run.stdout).toMatch(/^Score per operation \(checks passed of those that apply\): (\d+) of \1 operations at 100 %$/m);
  // Every documented success of every operation was among the answers.
  expect(run.stdout).toMatch(/^documented successes the answers produced: (\d+) of \1$/m);

  const xml = readFileSync(report, 'utf8');
  const suites = /<testsuites name="payments-conformance" tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)"/.exec(xml);
  expect(suites?.slice(1).map(Number)).toEqual([run.summary?.passed ?? 0, 0, 0]);
  expect(xml.match(/<testcase /g)?.length).toBe(run.summary?.passed ?? 0);
  expect(xml).toContain('<testcase classname="payments-conformance.quotes" name="quotes.outcome-003-completes');
  expect(xml).toContain('<testcase classname="payments-conformance.sandbox" name="sandbox.clock.outcome-005');
  expect(xml).toContain('<testcase classname="payments-conformance.pagination" name="pagination.listTokens.walk: walked to the end');
  expect(xml).toMatch(/<property name="score\.getCustomer" value="(\d+)\/\1"\/>/);
}, 15 * 60_000);
