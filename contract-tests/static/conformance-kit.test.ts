// The conformance kit's catalogue and reports, without an implementation: every check names real
// operations, a documented status and its rule; every operation has checks of its own beyond the
// generated ones; selection by id, prefix, tag and operationId; the JUnit report is well-formed
// whatever a failure says. (The kit against implementations: contract-tests/conformance/.)
import { describe, expect, it } from 'vitest';
import { operationById, operations, parametersOf, securityOf, statusesOf } from '../kit/bundle.ts';
import { CheckFailure, type Check } from '../kit/check.ts';
import { allChecks } from '../kit/checks/index.ts';
import { junitXml } from '../kit/junit.ts';
import { curlOf } from '../kit/curl.ts';
import { closing, scores, summaryLine } from '../kit/report.ts';
import { judged, select, type RunReport } from '../kit/runner.ts';

const checks = allChecks();

describe('the conformance kit', () => {
  it('names each check by a unique id, the operations and documented status it is about, and its rule', () => {
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    for (const check of checks) {
      expect(check.id, check.id).toMatch(/^[a-z-]+\.[A-Za-z0-9.-]+$/);
      expect(check.rule.length, check.id).toBeGreaterThan(20);
      expect(check.tags[0], check.id).toBe(check.id.split('.')[0]);
      for (const id of check.operations) {
        const op = operationById(id);
        if (check.status !== undefined && check.operations.length === 1) expect(statusesOf(op), `${check.id}: ${id} documents ${check.status}`).toContain(check.status);
      }
    }
  });

  it('checks every operation with checks of its own, beyond the ones generated for every operation', () => {
    const generated = /^(auth|input|errors|isolation)\./;
    const own = new Set(checks.filter((c) => !generated.test(c.id)).flatMap((c) => c.operations));
    expect(operations.map((o) => o.operationId).filter((id) => !own.has(id))).toEqual([]);
  });

  it('checks 401 on every operation that takes credentials, and the exactly full last page of every list', () => {
    const secured = operations.filter((o) => securityOf(o) !== 'none');
    expect(secured.length).toBe(99);
    for (const op of secured) expect(checks.map((c) => c.id), op.operationId).toContain(`auth.${op.operationId}.401`);
    // The paginated lists: those that take a limit (the credential list, at most three, is not paged).
    const lists = operations.filter((o) => parametersOf(o).some((p) => p.in === 'query' && p.name === 'limit'));
    expect(lists.length).toBe(19);
    for (const list of lists) expect(checks.map((c) => c.id), list.operationId).toContain(`pagination.${list.operationId}.walk`);
  });

  it('selects by id, id prefix, tag and operationId, and leaves out what --skip names', () => {
    const ids = (names: string[], skip: string[] = []) => select(checks, names, skip).map((c) => c.id);
    expect(ids(['customers.create.individual'])).toEqual(['customers.create.individual']);
    expect(ids(['customers.create'])).toEqual(expect.arrayContaining(['customers.create.individual', 'customers.create.business']));
    expect(ids(['pagination']).every((id) => id.startsWith('pagination.'))).toBe(true);
    expect(ids(['listTokens']).sort()).toEqual(expect.arrayContaining(['pagination.listTokens.walk', 'auth.listTokens.401']));
    expect(ids([], ['webhooks']).some((id) => id.startsWith('webhooks.'))).toBe(false);
    expect(select(checks, [], []).length).toBe(checks.length);
  });

  it('writes well-formed JUnit XML with the failure, its request and the skip reason, escaped', () => {
    const check = (id: string): Check => ({ id, operations: ['getCustomer'], status: 200, rule: 'a rule with <angle> & "quotes"', tags: [id.split('.')[0] ?? ''], needs: [], run: async () => {} });
    const request = { method: 'GET', url: 'https://h/2025-10-13/customers/x', headers: { Authorization: `Basic ${Buffer.from('id-1:sk_secret').toString('base64')}` } };
    const reply = { method: 'GET', path: '/customers/x', operationId: 'getCustomer', status: 500, headers: new Headers(), text: '', body: undefined, requestId: 'req-1', summary: 'GET /customers/x → 500, X-Request-Id: req-1', request, curl: curlOf(request, [{ secret: 'sk_secret', variable: 'PAYMENTS_CLIENT_SECRET' }]) };
    const report: RunReport = {
      prefix: 'conformance-test',
      successes: { documented: 95, produced: 95, missing: [] },
      capabilities: { stateless: undefined, noSandbox: undefined, noWebhooks: undefined },
      cleanupProblems: [],
      ms: 1234,
      results: [
        { check: check('customers.a'), outcome: 'passed', ms: 12 },
        { check: check('customers.b'), outcome: 'failed', failure: new CheckFailure('the rule', '200', 'a body with \u0001 and </failure>', reply), ms: 5 },
        { check: check('webhooks.c'), outcome: 'skipped', reason: 'needs webhooks: <none>', ms: 0 },
      ],
    };
    const xml = junitXml(report);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="payments-conformance" tests="3" failures="1" errors="0" skipped="1" time="1.234">/);
    expect(xml).toContain('<testsuite name="customers" tests="2" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<skipped message="needs webhooks: &lt;none&gt;"/>');
    expect(xml).toContain('request: GET /customers/x → 500, X-Request-Id: req-1');
    expect(xml).not.toContain('</failure> and');
    expect(xml).not.toContain('\u0001');
    // Every tag opened is closed: the failure's text cannot end the element early.
    expect(xml.match(/<failure /g)?.length).toBe(1);
    expect(xml.match(/<\/failure>/g)?.length).toBe(1);
    expect(summaryLine(report)).toBe('conformance: 1 passed, 1 failed, 1 skipped');
    expect(closing(report).split('\n').at(-1)).toBe('conformance: 1 passed, 1 failed, 1 skipped');
    // The failure's curl names the secret by its variable, never prints it.
    expect(closing(report)).toContain(`curl: curl -sS -i -X GET 'https://h/2025-10-13/customers/x' -u "id-1:$PAYMENTS_CLIENT_SECRET"`);
    expect(xml).not.toContain('sk_secret');
    // The rule broken comes first, the check it broke it in after.
    expect(closing(report)).toMatch(/FAIL customers\.b {2}getCustomer 200\n {2}rule: the rule\n {2}expected: 200\n/);
    // The score of each operation: passed of the checks that ran (the skipped one does not apply).
    expect(scores(report)).toEqual([{ operationId: 'getCustomer', passed: 1, applicable: 2 }]);
    expect(closing(report)).toContain('  getCustomer 1 of 2 (50 %)');
    expect(xml).toContain('<property name="score.getCustomer" value="1/2"/>');
  });

  it('lets the checks an expected-failures file lists fail, and fails the run when one of them passes', () => {
    const check = (id: string): Check => ({ id, operations: ['getCustomer'], rule: 'r', tags: ['customers'], needs: [], run: async () => {} });
    const expected = { file: 'expected.txt', ids: new Set(['customers.a', 'customers.b']) };
    const failure = new CheckFailure('the rule', 'x', 'y');
    expect(judged({ check: check('customers.a'), outcome: 'failed', failure, ms: 1 }, expected).outcome).toBe('expected');
    const passing = judged({ check: check('customers.b'), outcome: 'passed', ms: 1 }, expected);
    expect(passing.outcome).toBe('failed');
    expect((passing.failure as CheckFailure).rule).toMatch(/^a check listed as an expected failure passes: remove it from expected\.txt/);
    expect(judged({ check: check('customers.c'), outcome: 'failed', failure, ms: 1 }, expected).outcome).toBe('failed');
    expect(judged({ check: check('customers.a'), outcome: 'skipped', reason: 'r', ms: 0 }, expected).outcome).toBe('skipped');
    const report: RunReport = {
      prefix: 'p',
      successes: { documented: 1, produced: 1, missing: [] },
      capabilities: { stateless: undefined, noSandbox: undefined, noWebhooks: undefined },
      cleanupProblems: [],
      expectedFailuresFile: 'expected.txt',
      ms: 1,
      results: [{ check: check('customers.a'), outcome: 'expected', failure, ms: 1 }, { check: check('customers.c'), outcome: 'passed', ms: 1 }],
    };
    expect(summaryLine(report)).toBe('conformance: 1 passed, 0 failed, 0 skipped, 1 expected failure');
    expect(junitXml(report)).toContain('<skipped message="expected failure: the rule: expected x, got y">');
  });
});
