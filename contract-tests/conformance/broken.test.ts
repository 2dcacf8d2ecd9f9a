// The kit against implementations broken on purpose (broken-proxy.ts: the sandbox server behind a
// proxy that breaks one rule each): each run fails, and the failure names the broken rule. The
// same checks through the proxy breaking nothing pass, so the failures are the rules'.
import { expect, inject, it } from 'vitest';
import { startBrokenProxy, type BrokenRule } from './broken-proxy.ts';
import { runKit } from './run-kit.ts';

const stage = inject('conformance');

/** Each broken rule: the checks that meet it, and what their failure must say. */
const cases: [BrokenRule, string, RegExp][] = [
  ['create-200', 'customers.create.individual', /rule: createCustomer answers only its documented statuses \(201, [^\n]*\n {2}expected: an answer the contract allows\n {2}got: status 200 is not documented for createCustomer/],
  ['no-has-more', 'pagination.listTokens.walk', /rule: ListEnvelope requires `hasMore`[^\n]*\n[^\n]*\n {2}got: the body has no `hasMore`/],
  ['unprefixed-ids', 'customers.create.individual', /rule: ids carry their type: `<Type>:<uuid>`[^\n]*\n[^\n]*\n {2}got: \/id is "[0-9a-f-]{36}", expected a `Customer:` id/],
  ['no-auth', 'auth.getCustomer.401', /rule: getCustomer refuses a request without credentials \(authentication guide\)\n {2}expected: 401 UNAUTHORIZED/],
  ['ignore-idempotency-key', 'idempotency.createCustomer', /rule: a replay is answered with the stored response and Idempotent-Replayed: true \(idempotency guide\)/],
  ['bad-webhook-signature', 'webhooks.test', /rule: webhooks are signed with Standard Webhooks[^\n]*\n {2}expected: a signature that verifies with the secret\n {2}got: No matching signature found/],
  ['has-more-on-full-page', 'pagination.listTokens.walk', /rule: `hasMore` is true only when another page follows: the last page, also when exactly full, says `hasMore: false` \(pagination guide\)\n {2}expected: a page after `hasMore: true` to hold items\n {2}got: an empty page after 2 pages of 2, 2 items/],
];

it('through a proxy that breaks nothing, the same checks pass', async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'none', stage);
  try {
    const only = [...new Set(cases.map(([, checks]) => checks))];
    const run = await runKit(stage, proxy.baseUrl, ['--quiet', '--only', only.join(',')]);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.summary).toEqual({ passed: only.length, failed: 0, skipped: 0 });
  } finally {
    await proxy.close();
  }
}, 120_000);

it.each(cases)('%s: the kit fails, naming the rule', async (rule, only, message) => {
  const proxy = await startBrokenProxy(stage.baseUrl, rule, stage);
  try {
    const run = await runKit(stage, proxy.baseUrl, ['--quiet', '--only', only]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.summary?.failed, run.stdout).toBeGreaterThanOrEqual(1);
    expect(run.stdout).toMatch(message);
    // The failure names the request with its X-Request-Id (a webhook's names its webhook-id).
    expect(run.stdout).toMatch(rule === 'bad-webhook-signature' ? /webhook-id [0-9a-f]{8}-[0-9a-f-]{27}/ : /request: [A-Z]+ \/\S* → \d{3}, X-Request-Id: \S+/);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('a deployment without the sandbox (a production token): the checks that need it are skipped with the reason, the others pass', async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'no-sandbox', stage);
  try {
    const run = await runKit(stage, proxy.baseUrl, ['--quiet']);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(run.code).toBe(0);
    const reasons = run.stdout.split('\n').filter((l) => /^ {2}\d+ checks?: /.test(l));
    expect(reasons).toContainEqual(expect.stringMatching(/^ {2}\d+ checks: needs the sandbox: the token is not a sandbox token: POST \/sandbox\/\.\.\. answered 403 SANDBOX_ONLY$/));
    expect(run.summary?.passed).toBeGreaterThanOrEqual(400);
  } finally {
    await proxy.close();
  }
}, 240_000);

it('a sandbox without its clock: the checks of outcomes due minutes later wait for them (--wait-minutes) or are skipped with the reason; the clock checks say it is missing', async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'no-clock', stage);
  try {
    const other = ['--other-client-id', stage.otherClientId, '--other-client-secret', stage.otherClientSecret];
    const skipped = await runKit(stage, proxy.baseUrl, ['--only', 'quotes.outcome-003-completes,clock', ...other]);
    expect(skipped.code, skipped.stdout).toBe(0);
    expect(skipped.summary).toEqual({ passed: 0, failed: 0, skipped: 4 });
    expect(skipped.stdout).toMatch(/4 checks: waits minutes for a sandbox outcome \(run with --wait-minutes, or against a deployment with the sandbox clock\)/);
    // With --wait-minutes the clock checks run, find no clock, and say so (the 6-minute wait itself is left out here).
    const waiting = await runKit(stage, proxy.baseUrl, ['--wait-minutes', '--only', 'clock', ...other]);
    expect(waiting.code, waiting.stdout).toBe(0);
    expect(waiting.summary).toEqual({ passed: 0, failed: 0, skipped: 3 });
    expect(waiting.stdout).toMatch(/3 checks: the deployment has no sandbox clock \(GET \/sandbox\/clock did not answer 200\)/);
  } finally {
    await proxy.close();
  }
}, 120_000);
