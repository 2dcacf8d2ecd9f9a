// The run as JUnit XML, for CI dashboards: one testsuite per area (the first part of a check's id),
// one testcase per check, named by its id and rule; failures carry the expected and the actual
// answer and the request id, skips their reason.
import { describeFailure, scores } from './report.ts';
import type { Result, RunReport } from './runner.ts';

const escape = (text: string): string =>
  text
    // Characters XML 1.0 cannot hold at all.
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(result: Result): string {
  const { check } = result;
  const area = check.id.split('.')[0] ?? check.id;
  const open = `    <testcase classname="payments-conformance.${escape(area)}" name="${escape(`${check.id}: ${check.rule}`)}" time="${seconds(result.ms)}"`;
  if (result.outcome === 'passed') return `${open}/>`;
  if (result.outcome === 'skipped') return `${open}>\n      <skipped message="${escape(result.reason ?? '')}"/>\n    </testcase>`;
  // A listed failure is reported as dashboards show an expected failure: skipped, with why.
  if (result.outcome === 'expected') return `${open}>\n      <skipped message="${escape(`expected failure: ${result.failure?.message.split('\n')[0] ?? ''}`)}">${escape(describeFailure(result))}</skipped>\n    </testcase>`;
  const failure = result.failure ?? new Error('failed');
  const text = describeFailure(result);
  return `${open}>\n      <failure message="${escape(failure.message.split('\n')[0] ?? '')}" type="${escape(failure.name)}">${escape(text)}</failure>\n    </testcase>`;
}

export function junitXml(report: RunReport): string {
  const areas = new Map<string, Result[]>();
  for (const result of report.results) {
    const area = result.check.id.split('.')[0] ?? result.check.id;
    areas.set(area, [...(areas.get(area) ?? []), result]);
  }
  const count = (results: Result[], outcome: Result['outcome']) => results.filter((r) => r.outcome === outcome || (outcome === 'skipped' && r.outcome === 'expected')).length;
  const suites = [...areas].map(([area, results]) => {
    const time = results.reduce((sum, r) => sum + r.ms, 0);
    return `  <testsuite name="${escape(area)}" tests="${results.length}" failures="${count(results, 'failed')}" errors="0" skipped="${count(results, 'skipped')}" time="${seconds(time)}">\n${results.map(testcase).join('\n')}\n  </testsuite>`;
  });
  // The score per operation (passed of the checks that apply), as properties of a suite of no tests.
  const properties = scores(report).map((s) => `      <property name="score.${escape(s.operationId)}" value="${s.passed}/${s.applicable}"/>`);
  if (properties.length > 0) suites.push(`  <testsuite name="operations" tests="0" failures="0" errors="0" skipped="0" time="0.000">\n    <properties>\n${properties.join('\n')}\n    </properties>\n  </testsuite>`);
  const all = report.results;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="payments-conformance" tests="${all.length}" failures="${count(all, 'failed')}" errors="0" skipped="${count(all, 'skipped')}" time="${seconds(report.ms)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
