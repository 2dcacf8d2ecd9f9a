// Schema-driven fuzzing (contract-tests/fuzz/): thousands of generated requests, valid and broken,
// against a server of the file's own (random configuration changes and deletions must not disturb
// the other files' tests). FUZZ_SEED and FUZZ_REQUESTS replay or widen a run.
import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../server/operations.ts';
import { notImplemented } from '../../server/context/handler-types.ts';
import { fuzz } from '../fuzz/fuzzer.ts';
import { isMock, target } from '../support/api.ts';
import { ALL_AGENT_PERMISSIONS } from '../support/agents.ts';
import { commitSeed } from '../support/commit-seed.ts';
import { observedStatusesFile } from '../support/observed-statuses.ts';
import { ownServer } from '../support/own-server.ts';
import { basicAuth } from '../support/raw-requests.ts';
import { operations } from '../support/spec.ts';

// PGlite's run keeps one seed; PostgreSQL's fuzzes the requests the commit's seed chooses, half as
// many: a run of both sends 8,100 distinct requests, not the same 5,400 twice, and each commit some
// no run has sent before.
const onPostgres = target === 'postgres';
const SEED = Number(process.env.FUZZ_SEED ?? (onPostgres ? commitSeed() : 20251013));
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? (onPostgres ? 2_700 : 5_400));

// On a server of its own (no proxy in front; the database of the target): the server targets only.
describe.skipIf(isMock)('schema-driven fuzzing', () => {
  const own = ownServer({ onTargetDatabase: true });

  it(`${REQUESTS} generated requests (seed ${SEED}) get documented answers, never a 5xx`, { timeout: 900_000 }, async () => {
    const { data: customer } = await own.via.POST('/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: 'fuzz-agent-owner', fullName: 'Fuzz Owner' } });
    const { data: agent } = await own.via.POST('/agents', {
      body: { name: 'Fuzz agent', customerId: customer?.id ?? '', policy: { permissions: ALL_AGENT_PERMISSIONS, defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } } },
    });
    const redeemed = await fetch(`${own.server.baseUrl}/agents/device-codes/${agent?.deviceCode.code}/redeem`, { method: 'POST' });
    const { accessToken } = (await redeemed.json()) as { accessToken: string };
    const { data: tokens } = await own.via.GET('/tokens');

    const implemented = operations.filter((o) => handlers[o.operation.operationId as keyof typeof handlers] !== notImplemented);
    const report = await fuzz({
      baseUrl: own.server.baseUrl,
      seed: SEED,
      requests: REQUESTS,
      operations: implemented,
      authorization: { basic: basicAuth(own.token), bearer: `Bearer ${accessToken}` },
      protectedIds: [agent?.agent.id ?? '', customer?.id ?? '', ...(tokens?.data.map((t) => t.id) ?? [])],
      observe: (operationId, status) => appendFileSync(observedStatusesFile(target), `${operationId} ${status}\n`),
    });
    console.log(report.summary);
    if (report.slow.length > 0) console.log(`${report.slow.length} requests took over a second:\n  ${report.slow.slice(0, 10).join('\n  ')}`);
    const shown = report.failures.slice(0, 15).map((f) => `#${f.index} ${f.rule} (got ${f.status})\n  ${f.request}\n  answer: ${f.response}`);
    expect(shown, `replay with FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}; ${report.failures.length} failures, the first ones:\n${shown.join('\n')}`).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
  });
});
