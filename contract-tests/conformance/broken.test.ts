// The kit against implementations broken on purpose (broken-proxy.ts: the sandbox server behind a
// proxy that breaks one rule each): each run fails, and the failure names the broken rule. The
// same checks through the proxy breaking nothing pass, so the failures are the rules'.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  ['stale-webhook-timestamp', 'webhooks.test', /rule: webhooks are signed with Standard Webhooks[^\n]*\n {2}expected: a signature that verifies with the secret\n {2}got: Message timestamp too old \(webhook-id [0-9a-f-]{36}, webhook-timestamp "\d+": -36\d\d s from its arrival/],
  ['local-offset-times', 'webhooks.test', /rule: times are ISO 8601 date-times in UTC, written with `Z` \(conventions guide[^\n]*\n {2}expected: a TEST body the spec allows\n {2}got: \/timestamp is "[^"]+\+02:00", a time with the offset \+02:00 \(webhook-id [0-9a-f-]{36}\)/],
  ['text-errors', 'errors.getCustomer.404', /rule: getCustomer 404 answers the JSON error shape, application\/json \(errors guide; spec: its response\)\n {2}expected: an answer the contract allows\n {2}got: content-type text\/plain; charset=utf-8, the body begins "404 CUSTOMER_NOT_FOUND\\n"/],
  ['fractional-amounts', 'transactions.funding.currencies', /rule: money is an integer in the smallest unit of its currency[^\n]*\n {2}expected: an answer the contract allows\n {2}got: \/[\w/]*amount is \d+\.5, not an integer/],
  ['recount-total', 'pagination.listTokens.while-changing', /rule: `totalCount` does not move under you: a page fetched with a cursor repeats its walk's first `totalCount`, also when the list changed since \(pagination guide\)\n {2}expected: totalCount 4, as on the first page\n {2}got: totalCount 5 on page 2, after an item was added/],
  ['key-across-operations', 'idempotency.scope', /rule: keys of different operations never meet: createCustomerExternalAccount with a key another operation used is processed \(idempotency guide\)\n {2}expected: 201\n {2}got: 422 \{"status":422,"code":"IDEMPOTENCY_KEY_REUSED"/],
  ['status-goes-back', 'transactions.status-forward', /rule: a status moves only along its state machine, never back \(spec: TransactionStatus, x-state-machine\): nothing leads from (COMPLETED|FAILED) to PROCESSING\n {2}expected: a status its earlier reads can lead to\n {2}got: the statuses read of Transaction:[0-9a-f-]{36}, in order: [A-Z, ]*(COMPLETED|FAILED), PROCESSING\n/],
  ['local-offset-times', 'customers.create.individual', /rule: times are ISO 8601 date-times in UTC, written with `Z` \(conventions guide[^\n]*\n {2}expected: an answer the contract allows\n {2}got: \/\w+At is "[^"]+\+02:00", a time with the offset \+02:00/],
  ['leak-by-id', 'isolation.getDocument,isolation.getVerification', /FAIL isolation\.getDocument[^\n]*\n(?: {2}[^\n]*\n)*? {2}rule: another platform's object in the path is 404, as one that does not exist \(authentication guide: isolation\)\n {2}expected: 404\n {2}got: 200 \{"id":"[0-9a-f-]{36}","documentHolder"/],
  ['leak-by-id', 'isolation.getCurrentAgentTransaction', /rule: another customer's object in the path is 404, as one that does not exist \(authentication guide: isolation\)\n {2}expected: 404\n {2}got: 200 \{"id":"Transaction:/],
  ['clock-ignored', 'sandbox.clock.outcome-005', /rule: suffix 005: FAILED once the clock is 30 seconds on, when the advance answers\n {2}expected: at least \{"status":"FAILED","failureReason":"BANK_REJECTED"\}\n {2}got: \{[^\n]*"status":"PENDING"/],
  ['clock-goes-back', 'sandbox.clock.advance', /rule: advancing by 60 seconds moves the clock 60 seconds ahead \(sandbox guide: the sandbox clock\)\n {2}expected: 60000\n {2}got: (-\d+|0)\n/],
  ['oldest-first', 'pagination.listPlatformExternalAccounts.walk', /rule: a list is newest first unless the operation says otherwise \(pagination guide: `data`; each list's description\)\n {2}expected: createdAt never later than the item before it \(limit=\d+\)\n {2}got: item \d+ \(\S+\) after item \d+ \(\S+\)/],
];

/** A second platform, for the isolation checks. */
const otherPlatform = () => ['--other-client-id', stage.otherClientId, '--other-client-secret', stage.otherClientSecret];

it('through a proxy that breaks nothing, the same checks pass', async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'none', stage);
  try {
    const only = [...new Set(cases.flatMap(([, checks]) => checks.split(',')))];
    const run = await runKit(stage, proxy.baseUrl, ['--quiet', '--only', only.join(','), ...otherPlatform()]);
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
    const run = await runKit(stage, proxy.baseUrl, ['--quiet', '--only', only, ...otherPlatform()]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.summary?.failed, run.stdout).toBeGreaterThanOrEqual(1);
    expect(run.stdout).toMatch(message);
    // The failure names the request with its X-Request-Id (a webhook's names its webhook-id).
    expect(run.stdout).toMatch(only.startsWith('webhooks.') ? /webhook-id [0-9a-f]{8}-[0-9a-f-]{27}/ : /request: [A-Z]+ \/\S* → \d{3}, X-Request-Id: \S+/);
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

it("total-one-too-high: every failure names the list's count first, not what a check reading the list would blame", async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'total-one-too-high', stage);
  try {
    const run = await runKit(stage, proxy.baseUrl, ['--quiet', '--only', 'tokens,customers,transactions']);
    expect(run.code, run.stdout).toBe(1);
    const rules = run.stdout.split('\n').filter((l) => l.startsWith('  rule: '));
    expect(rules.length).toBeGreaterThanOrEqual(10);
    expect(new Set(rules)).toEqual(new Set(['  rule: `totalCount` is how many items match the filters, as of the first page: a first page that is also the last holds them all (pagination guide)']));
  } finally {
    await proxy.close();
  }
}, 120_000);

it('--expected-failures: the listed checks may fail; one of them that passes fails the run, naming the file to remove it from', async () => {
  const proxy = await startBrokenProxy(stage.baseUrl, 'oldest-first', stage);
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-expected-')), 'expected-failures.txt');
  try {
    const only = ['--quiet', '--only', 'pagination.listPlatformExternalAccounts.walk,auth.getCustomer.401', '--expected-failures', file];
    writeFileSync(file, '# oldest first, as the gateway answers them\npagination.listPlatformExternalAccounts.walk\n');
    const adopted = await runKit(stage, proxy.baseUrl, only);
    expect(adopted.code, adopted.stdout).toBe(0);
    expect(adopted.summary).toEqual({ passed: 1, failed: 0, skipped: 0, expected: 1 });
    expect(adopted.stdout).toContain(`Expected failures (1, listed in ${file}):\n  pagination.listPlatformExternalAccounts.walk: a list is newest first`);
    expect(adopted.stdout).toMatch(/^ {2}listPlatformExternalAccounts 0 of 1 \(0 %\)$/m);

    writeFileSync(file, 'pagination.listPlatformExternalAccounts.walk\nauth.getCustomer.401\n');
    const fixed = await runKit(stage, proxy.baseUrl, only);
    expect(fixed.code, fixed.stdout).toBe(1);
    expect(fixed.summary).toEqual({ passed: 0, failed: 1, skipped: 0, expected: 1 });
    expect(fixed.stdout).toContain(`FAIL auth.getCustomer.401  getCustomer 401\n  rule: a check listed as an expected failure passes: remove it from ${file}, so that it stays passing (--expected-failures)`);

    writeFileSync(file, 'pagination.no-such-check\n');
    const typo = await runKit(stage, proxy.baseUrl, only);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`${file} lists pagination.no-such-check, which is no check of the kit`);
  } finally {
    await proxy.close();
  }
}, 120_000);

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
