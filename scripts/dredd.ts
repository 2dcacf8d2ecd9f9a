// `npm run test:dredd`: dredd, the product's named contract tester, on the 3.0 copy of the spec
// (generated/openapi-3.0.yaml) against the real server on an in-memory PGlite database and against
// a Prism mock of the spec. Prints one summary line; exits 1 on any failure.
import { randomBytes } from 'node:crypto';
import { expectConsistentLedger } from '../contract-tests/support/global-setup.ts';
import { startPrism } from '../contract-tests/support/prism-process.ts';
import { newCredentials, startServer } from '../contract-tests/support/server-process.ts';
import { UNTESTABLE_ON_SERVER } from './dredd/contract-hooks.ts';
import { runDredd, type DreddResult } from './dredd/run-dredd.ts';

const credentials = newCredentials();
const [server, prism] = await Promise.all([
  startServer({ PAYMENTS_CLIENT_ID: credentials.clientId, PAYMENTS_CLIENT_SECRET: credentials.clientSecret, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64') }),
  startPrism(['mock', 'generated/openapi.yaml']),
]);

let onServer: DreddResult;
let onMock: DreddResult;
try {
  [onServer, onMock] = await Promise.all([
    runDredd({ kind: 'server', baseUrl: server.baseUrl, credentials }),
    // Prism routes the spec's paths without the servers' /2025-10-13 prefix.
    runDredd({ kind: 'mock', baseUrl: prism.origin, credentials }),
  ]);
  // All that money moved: every balance must still equal the sum of its ledger entries.
  await expectConsistentLedger(server.origin);
} finally {
  prism.stop();
  await server.stop();
}

const report = (target: string, result: DreddResult) => {
  for (const failure of result.failures) console.error(`dredd ${target} FAIL ${failure}`);
};
report('server', onServer);
report('prism', onMock);
const listed = Object.keys(UNTESTABLE_ON_SERVER).length;
console.log(`dredd: untestable on the server (listed in scripts/dredd/contract-hooks.ts): ${listed}`);
console.log(`dredd: response bodies checked against the 3.1 schema: server ${onServer.bodiesChecked}, prism ${onMock.bodiesChecked}`);
console.log(
  `dredd: server ${onServer.passed} passed, ${onServer.failed} failed, ${onServer.skippedListed} skipped (listed); prism ${onMock.passed} passed, ${onMock.failed} failed`,
);
process.exit(onServer.failed + onMock.failed > 0 ? 1 : 0);
