// The conformance kit's checks (contract-tests/kit/) as part of the contract suite: the one source
// of the checks the kit and the suite share. Every kit check runs against the PGlite target (a
// test each, with the kit's verdict); every answer it gets is also checked by the suite's own
// contract check (an independent validator) and counted for the coverage gate. On the other
// targets it is left out, each for a run that already makes the same requests: on PostgreSQL the
// kit's proofs (`npm run test:conformance`, in .ci/run) run every check against the same server on
// the same engine, a second platform included; through the Prism proxy the suite's own tests put
// Prism's verdict on every operation's answers; the bare Prism mock answers in Prism's own error
// shapes, and the kit meets it through `npm run mock` in test:conformance. The checks that change
// the platform's configuration (its webhook endpoint, its name) run on a server of their own, out
// of the way of platform-config.test.ts, which changes it on the shared target; so do those that
// advance the platform's sandbox clock (need `minutes`), which would age the other files' objects.
// The checks that wait for delayed sandbox outcomes (up to 30 s) are left to test:conformance: here the
// same outcomes are proven with the clock moved (../server/transfer-outcomes.test.ts,
// quote-outcomes.test.ts), and the waits would make this file the suite's longest by far.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import type { Check } from '../kit/check.ts';
import { allChecks } from '../kit/checks/index.ts';
import { describeFailure } from '../kit/report.ts';
import { runConformance, select, type RunOptions, type RunReport } from '../kit/runner.ts';
import { checkResponse, credentials, serverBaseUrl, target } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';

/** The checks that change the platform's configuration, and those that advance its sandbox clock. */
const PLATFORM_WIDE = ['webhooks', 'config.update'];
const isPlatformWide = (check: Check) => select([check], PLATFORM_WIDE).length === 1 || check.needs.includes('minutes');

/** Every answer to an operation also goes through the suite's contract check (and the coverage tally). */
const onAnswer: RunOptions['onAnswer'] = async (reply, response) => {
  if (reply.operationId !== undefined) await checkResponse(reply.method, response.url === '' ? `${serverBaseUrl}${reply.path}` : response.url, response);
};

/** A test per check, reporting the kit's verdict on it. */
function verdicts(checks: ReturnType<typeof allChecks>, report: () => RunReport | undefined) {
  for (const check of checks) {
    it(`${check.id} (${[...check.operations, check.status].filter((x) => x !== undefined).join(' ')})`, (ctx: TestContext) => {
      const result = report()?.results.find((r) => r.check.id === check.id);
      if (result === undefined) throw new Error('the kit did not run this check');
      if (result.outcome === 'skipped') ctx.skip(result.reason);
      if (result.outcome === 'failed') throw new Error(describeFailure(result), { cause: result.failure });
    });
  }
}

const ELSEWHERE: Record<string, string> = {
  postgres: 'the kit runs every check against the sandbox on PostgreSQL in npm run test:conformance (.ci/run)',
  prism: 'the kit meets the mock through `npm run mock` in npm run test:conformance',
};
const elsewhere = ELSEWHERE[target];
if (elsewhere !== undefined) it.skip(`the conformance kit's checks: ${elsewhere}`);

if (elsewhere === undefined) describe('the conformance kit against the target', () => {
  const checks = allChecks().filter((c) => !isPlatformWide(c));
  let report: RunReport | undefined;
  beforeAll(async () => {
    // Straight to the server, past the proxy: the kit's refusals are the server's to give.
    report = await runConformance(checks, { baseUrl: serverBaseUrl, credentials, skipSlow: true, onAnswer });
  }, 600_000);
  verdicts(checks, () => report);
});

if (elsewhere === undefined) describe("the conformance kit's checks that change the platform's configuration or advance its clock, on a server of their own", () => {
  const own = ownServer();
  const checks = allChecks().filter(isPlatformWide);
  let report: RunReport | undefined;
  beforeAll(async () => {
    // A second platform of the server's own, for the check that another platform's clock does not move.
    const other = (await (await fetch(`${own.server.origin}/__test/platforms`, { method: 'POST' })).json()) as { clientId: string; clientSecret: string };
    report = await runConformance(checks, { baseUrl: own.server.baseUrl, credentials: own.token, otherPlatform: other, onAnswer: async (reply, response) => {
      if (reply.operationId !== undefined) await checkResponse(reply.method, response.url, response);
    } });
  }, 120_000);
  verdicts(checks, () => report);
});
