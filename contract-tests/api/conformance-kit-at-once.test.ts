// Two runs of the conformance kit at once on one platform (with a second platform), forced into
// the interleavings that failed them before: both read the configuration before either sets the
// webhook endpoint, the first sets it and reads it back as its own, then the second sets it too
// (last writer wins); and another client advances the clock under the first run's clock check.
// Neither may fail: the second holds the endpoint and runs the webhook checks, the first skips them
// saying why, the clock check is tried again, and the endpoint is put back by its holder alone.
// A server of the file's own: the runs change its webhook endpoint and advance a clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { allChecks } from '../kit/checks/index.ts';
import { describeFailure } from '../kit/report.ts';
import { runConformance, select, type RunReport } from '../kit/runner.ts';
import { isMock } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';

type Credentials = { clientId: string; clientSecret: string };

/** A promise and what settles it. */
function signal(): { promise: Promise<void>; done: () => void } {
  let done = () => {};
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { promise, done };
}

const failures = (report: RunReport) => report.results.filter((r) => r.outcome === 'failed').map(describeFailure);
const outcomes = (report: RunReport, tag: string) => report.results.filter((r) => r.check.tags.includes(tag)).map((r) => [r.check.id, r.outcome, r.reason]);

describe.skipIf(isMock)('two runs of the conformance kit at once on one platform', () => {
  const own = ownServer();
  let other: Credentials;
  beforeAll(async () => {
    other = (await (await fetch(`${own.server.origin}/__test/platforms`, { method: 'POST' })).json()) as Credentials;
  });

  it('the last to set the webhook endpoint runs the webhook checks, the other skips them saying why; a clock moved by another client is checked again; 0 failed each', async () => {
    const checks = () => select(allChecks(), ['webhooks', 'clock', 'quotes.outcome-003-completes']);
    const firstReady = signal();
    const secondReady = signal();
    const firstReadBack = signal();
    let disturbed = false;
    const patchesEndpoint = (url: string, init?: RequestInit) => init?.method === 'PATCH' && url.endsWith('/config') && String(init.body).includes('webhookEndpoint');
    // Run 1 sets the endpoint once both have read the configuration (no endpoint), and reads it back
    // as its own; only then run 2 sets it.
    let firstPatched = false;
    const first: typeof fetch = async (input, init) => {
      const url = String(input);
      if (patchesEndpoint(url, init) && !String(init?.body).includes('null')) {
        firstReady.done();
        await secondReady.promise;
        firstPatched = true;
        return fetch(input, init);
      }
      if (firstPatched && (init?.method ?? 'GET') === 'GET' && url.endsWith('/config')) {
        const answer = await fetch(input, init);
        firstReadBack.done();
        return answer;
      }
      // Another client advances the (second) platform's clock by 10 minutes as this run's
      // outcome-005 check makes its first advance, of 20 seconds.
      if (!disturbed && init?.method === 'POST' && url.endsWith('/sandbox/clock/advance') && String(init.body) === '{"seconds":20}') {
        disturbed = true;
        await fetch(url, { method: 'POST', headers: init.headers ?? {}, body: JSON.stringify({ seconds: 600 }) });
      }
      return fetch(input, init);
    };
    const second: typeof fetch = async (input, init) => {
      if (patchesEndpoint(String(input), init) && !String(init?.body).includes('null')) {
        secondReady.done();
        await firstReady.promise;
        await firstReadBack.promise;
      }
      return fetch(input, init);
    };
    const run = (fetchOf: typeof fetch) => runConformance(checks(), { baseUrl: own.server.baseUrl, credentials: own.token, otherPlatform: other, fetch: fetchOf });
    const [one, two] = await Promise.all([run(first), run(second)]);

    expect(failures(one)).toEqual([]);
    expect(failures(two)).toEqual([]);
    expect(disturbed).toBe(true);
    // Run 2 wrote last: its webhook checks ran and passed; run 1's were skipped, saying why.
    const webhooks = outcomes(two, 'webhooks');
    expect(webhooks.length).toBeGreaterThanOrEqual(8);
    expect(webhooks.filter(([, outcome]) => outcome !== 'passed')).toEqual([]);
    for (const [, outcome, reason] of outcomes(one, 'webhooks')) {
      expect(outcome).toBe('skipped');
      expect(reason).toMatch(/^another client set the platform's webhook endpoint to http:\/\/127\.0\.0\.1:\d+\/webhooks\/conformance-[0-9a-f]{8} during the run \(another run of the kit on this platform at the same time\?\)/);
    }
    for (const report of [one, two]) expect(outcomes(report, 'clock').map(([id, outcome]) => `${id} ${outcome}`)).toEqual(['sandbox.clock.advance passed', 'sandbox.clock.outcome-005 passed', 'sandbox.clock.isolation passed']);
    expect(one.cleanupProblems).toEqual([]);
    expect(two.cleanupProblems).toEqual([]);
    // Run 2, the holder, put back the platform's endpoint as it found it (none); run 1 left it alone.
    const config = (await (await fetch(`${own.server.baseUrl}/config`, { headers: { Authorization: `Basic ${Buffer.from(`${own.token.clientId}:${own.token.clientSecret}`).toString('base64')}` } })).json()) as { webhookEndpoint?: string };
    expect(config.webhookEndpoint).toBeUndefined();
  }, 180_000);
});
