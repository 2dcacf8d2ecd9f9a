#!/usr/bin/env node
// `payments-conformance`: the conformance kit as a command. Options come from the command line or
// the environment (README.md beside this file lists both); the exit status is 0 only when every
// check that ran passed, and the last line is `conformance: P passed, F failed, S skipped`.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { API_VERSION, packageVersion } from './bundle.ts';
import { allChecks } from './checks/index.ts';
import { junitXml } from './junit.ts';
import { FatalError } from './probes.ts';
import { closing, headline, resultLine } from './report.ts';
import { runConformance, select } from './runner.ts';

const HELP = `payments-conformance ${packageVersion}: checks an implementation of the Payments Service API ${API_VERSION} against its contract

  npx payments-conformance --base-url https://host/${API_VERSION} --client-id ... --client-secret ... [--report junit.xml] [--only <tag>,...]

Options (environment variable in brackets):
  --base-url <url>            the API's base URL, version included [PAYMENTS_BASE_URL]
  --client-id <id>            an API token with MANAGE, TRANSACT and VIEW [PAYMENTS_CLIENT_ID]
  --client-secret <secret>    its secret [PAYMENTS_CLIENT_SECRET]
  --report <file>             also write the results as JUnit XML [PAYMENTS_CONFORMANCE_REPORT]
  --only <names>              run only the checks with one of these ids, id prefixes, tags or operationIds [PAYMENTS_CONFORMANCE_ONLY]
  --skip <names>              leave these out [PAYMENTS_CONFORMANCE_SKIP]
  --expected-failures <file>  check ids (one a line, # comments) that may fail; one that passes fails the run [PAYMENTS_CONFORMANCE_EXPECTED_FAILURES]
  --list                      print every check (id, operations, status, needs, rule) and exit
  --stateless                 the implementation keeps no state (a mock): run only what a mock can pass [PAYMENTS_CONFORMANCE_STATELESS=1]
  --skip-slow                 leave out the checks that wait up to a minute for a sandbox outcome [PAYMENTS_CONFORMANCE_SKIP_SLOW=1]
  --wait-minutes              also run the checks that wait minutes for a sandbox outcome [PAYMENTS_CONFORMANCE_WAIT_MINUTES=1]
  --webhook-host <host>       where the webhook receiver listens (127.0.0.1) [PAYMENTS_WEBHOOK_HOST]
  --webhook-port <port>       its port (any free one) [PAYMENTS_WEBHOOK_PORT]
  --webhook-url <url>         the URL the implementation should call, when not the receiver's own [PAYMENTS_WEBHOOK_URL]
  --webhook-secret <whsec_>   the signing secret of the platform's current endpoint, if it has one [PAYMENTS_WEBHOOK_SECRET]
  --other-client-id <id>      a token of another platform of the deployment, for the isolation checks [PAYMENTS_OTHER_CLIENT_ID]
  --other-client-secret <s>   its secret [PAYMENTS_OTHER_CLIENT_SECRET]
  --concurrency <n>           checks at once (8) [PAYMENTS_CONFORMANCE_CONCURRENCY]
  --prefix <prefix>           prefix of the data the run makes (conformance-<random>) [PAYMENTS_CONFORMANCE_PREFIX]
  --timeout <seconds>         bound on one request (30) [PAYMENTS_CONFORMANCE_TIMEOUT]
  --outcome-wait <seconds>    bound on waiting for a sandbox outcome due "a few seconds" later (20) [PAYMENTS_CONFORMANCE_OUTCOME_WAIT]
  --quiet                     print only failures and the summary
  --help, --version

Exit status: 0 when every check that ran passed, 1 when one failed, 2 when the run could not start.
The full documentation: node_modules/@payments-service/contract/contract-tests/kit/README.md`;

const env = process.env;
const list = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const flag = (value: boolean | undefined, variable: string): boolean => value === true || ['1', 'true', 'yes'].includes((env[variable] ?? '').toLowerCase());

function usage(message: string): never {
  console.error(`payments-conformance: ${message}\n(--help lists the options)`);
  process.exit(2);
}

function parse() {
  return parseArgs({
    options: {
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      report: { type: 'string' },
      only: { type: 'string' },
      skip: { type: 'string' },
      'expected-failures': { type: 'string' },
      list: { type: 'boolean' },
      stateless: { type: 'boolean' },
      'skip-slow': { type: 'boolean' },
      'wait-minutes': { type: 'boolean' },
      'webhook-host': { type: 'string' },
      'webhook-port': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'other-client-id': { type: 'string' },
      'other-client-secret': { type: 'string' },
      concurrency: { type: 'string' },
      prefix: { type: 'string' },
      timeout: { type: 'string' },
      'outcome-wait': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  });
}

/**
 * The check ids of an expected-failures file: one a line, blank lines and `#` comments ignored. An
 * id that names no check of the kit stops the run (exit 2): a typo would otherwise hide nothing.
 */
function readExpectedFailures(file: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    usage(`--expected-failures: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const ids = new Set(text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean));
  const known = new Set(allChecks().map((c) => c.id));
  const unknown = [...ids].filter((id) => !known.has(id));
  if (unknown.length > 0) usage(`--expected-failures: ${file} lists ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is no check' : 'are no checks'} of the kit (--list prints their ids)`);
  return ids;
}

/** The run; its exit status. */
async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const o = parsed.values;
  if (o.help === true) {
    console.log(HELP);
    return 0;
  }
  if (o.version === true) {
    console.log(packageVersion);
    return 0;
  }

  const number = (value: string | undefined, what: string, fallback: number, min = 0): number => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) usage(`${what} must be a number of at least ${min}, got ${value}`);
    return n;
  };

  const checks = select(allChecks(), list(o.only ?? env.PAYMENTS_CONFORMANCE_ONLY), list(o.skip ?? env.PAYMENTS_CONFORMANCE_SKIP));
  if (o.list === true) {
    for (const check of checks) console.log(`${headline(check)}${check.needs.length === 0 ? '' : `  [needs: ${check.needs.join(', ')}]`}\n    ${check.rule}`);
    console.log(`${checks.length} checks`);
    return 0;
  }

  const baseUrl = o['base-url'] ?? env.PAYMENTS_BASE_URL;
  const clientId = o['client-id'] ?? env.PAYMENTS_CLIENT_ID;
  const clientSecret = o['client-secret'] ?? env.PAYMENTS_CLIENT_SECRET;
  if (baseUrl === undefined || baseUrl === '') usage('--base-url (or PAYMENTS_BASE_URL) is required');
  if (!URL.canParse(baseUrl)) usage(`--base-url is not a URL: ${baseUrl}`);
  if (clientId === undefined || clientId === '' || clientSecret === undefined || clientSecret === '') usage('--client-id and --client-secret (or PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET) are required');
  if (checks.length === 0) usage('--only / --skip leave no check to run (--list shows their ids and tags)');
  const otherId = o['other-client-id'] ?? env.PAYMENTS_OTHER_CLIENT_ID;
  const otherSecret = o['other-client-secret'] ?? env.PAYMENTS_OTHER_CLIENT_SECRET;
  if ((otherId === undefined) !== (otherSecret === undefined)) usage('--other-client-id and --other-client-secret go together');
  const webhookUrl = o['webhook-url'] ?? env.PAYMENTS_WEBHOOK_URL;
  if (webhookUrl !== undefined && !URL.canParse(webhookUrl)) usage(`--webhook-url is not a URL: ${webhookUrl}`);
  const reportFile = o.report ?? env.PAYMENTS_CONFORMANCE_REPORT;
  const expectedFile = o['expected-failures'] ?? env.PAYMENTS_CONFORMANCE_EXPECTED_FAILURES;
  const expectedFailures = expectedFile === undefined || expectedFile === '' ? undefined : { file: expectedFile, ids: readExpectedFailures(expectedFile) };
  const quiet = o.quiet === true;
  const prefix = o.prefix ?? env.PAYMENTS_CONFORMANCE_PREFIX;

  console.log(`payments-conformance ${packageVersion}: ${checks.length} checks against ${baseUrl}`);
  try {
    const report = await runConformance(checks, {
      baseUrl,
      credentials: { clientId, clientSecret },
      concurrency: number(o.concurrency ?? env.PAYMENTS_CONFORMANCE_CONCURRENCY, '--concurrency', 8, 1),
      stateless: flag(o.stateless, 'PAYMENTS_CONFORMANCE_STATELESS'),
      skipSlow: flag(o['skip-slow'], 'PAYMENTS_CONFORMANCE_SKIP_SLOW'),
      waitMinutes: flag(o['wait-minutes'], 'PAYMENTS_CONFORMANCE_WAIT_MINUTES'),
      webhook: {
        host: o['webhook-host'] ?? env.PAYMENTS_WEBHOOK_HOST ?? '127.0.0.1',
        port: number(o['webhook-port'] ?? env.PAYMENTS_WEBHOOK_PORT, '--webhook-port', 0),
        url: webhookUrl,
        secret: o['webhook-secret'] ?? env.PAYMENTS_WEBHOOK_SECRET,
      },
      ...(otherId === undefined || otherSecret === undefined ? {} : { otherPlatform: { clientId: otherId, clientSecret: otherSecret } }),
      ...(prefix === undefined ? {} : { prefix }),
      ...(expectedFailures === undefined ? {} : { expectedFailures }),
      requestTimeoutMs: number(o.timeout ?? env.PAYMENTS_CONFORMANCE_TIMEOUT, '--timeout', 30, 1) * 1000,
      outcomeWaitMs: number(o['outcome-wait'] ?? env.PAYMENTS_CONFORMANCE_OUTCOME_WAIT, '--outcome-wait', 20, 1) * 1000,
      onResult: (result) => {
        if (!quiet || result.outcome === 'failed') console.log(resultLine(result));
      },
      // Stopped early (a cancelled CI job), the run still puts the webhook endpoint back and
      // deletes the credentials it made.
      onUndo: (undo) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          process.once(signal, () => {
            console.error(`payments-conformance: ${signal}, undoing what the run changed`);
            void undo().finally(() => process.exit(130));
          });
        }
      },
    });
    if (reportFile !== undefined) writeFileSync(reportFile, junitXml(report));
    console.log(closing(report));
    return report.results.some((r) => r.outcome === 'failed') ? 1 : 0;
  } catch (error) {
    if (!(error instanceof FatalError)) throw error;
    console.error(`payments-conformance: ${error.message}`);
    console.log('conformance: 0 passed, 0 failed, 0 skipped');
    return 2;
  }
}

// The exit status is set, not forced, so that everything written to stdout reaches a pipe; an idle
// keep-alive connection does not hold the process past a second.
process.exitCode = await main();
setTimeout(() => process.exit(), 1_000).unref();
