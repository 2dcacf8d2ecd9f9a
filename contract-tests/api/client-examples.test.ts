// The client's runnable examples (client/examples/), run as an integrator runs them: `tsx` with
// the package imported by name, credentials from the environment, against a server of this file's
// own (the webhook example changes the platform's webhook endpoint). Each must exit 0 and print
// what it did.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { target } from '../support/api.ts';
import { ownServer } from '../support/own-server.ts';

const root = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

describe.skipIf(target !== 'pglite')('client examples', () => {
  const own = ownServer();

  const example = async (name: string) => {
    const env = { ...process.env, PAYMENTS_BASE_URL: own.server.baseUrl, PAYMENTS_CLIENT_ID: own.token.clientId, PAYMENTS_CLIENT_SECRET: own.token.clientSecret };
    // execFile rejects on a non-zero exit, with the output in the error.
    const { stdout } = await run(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), `client/examples/${name}.ts`], { cwd: root, env, timeout: 60_000 });
    return stdout;
  };

  // First: the other examples' payments send events when their outcomes come due, seconds later,
  // which this example (counting every webhook it verifies) received too when it ran after them.
  it('webhook-receiver verifies the sandbox\'s webhooks and refuses a forged one', async () => {
    const out = await example('webhook-receiver');
    expect(out.match(/^verified TEST [0-9a-f-]{36}$/gm)).toHaveLength(2);
    expect(out).toContain('sandbox test webhook: the endpoint answered 204');
    expect(out).toContain('done: 2 webhooks verified, 1 forged one refused');
  }, 90_000);

  it('quickstart creates a customer and prints it', async () => {
    const out = await example('quickstart');
    expect(out).toMatch(/created customer \{/);
    expect(out).toMatch(/id: 'Customer:[0-9a-f-]{36}'/);
    expect(out).toContain("fullName: 'Jane Doe'");
  }, 90_000);

  it('payout funds an account, pays a bank account and executes an UMA quote', async () => {
    const out = await example('payout');
    expect(out).toMatch(/internal account InternalAccount:\S+ funded: balance 50000 USD/);
    expect(out).toMatch(/transfer-out Transaction:\S+: (PENDING|PROCESSING|COMPLETED)/);
    expect(out).toMatch(/quote Quote:\S+: 10000 USD → \d+ MXN/);
    expect(out).toMatch(/quote Quote:\S+ executed: (PROCESSING|COMPLETED)/);
  }, 90_000);

  it('agent connects, acts with its token and gets a held transfer approved', async () => {
    const out = await example('agent');
    expect(out).toMatch(/agent connected as Bill payer for Customer:/);
    expect(out).toContain('agent transfer of $5: APPROVED');
    expect(out).toContain('agent transfer of $50: PENDING_APPROVAL');
    expect(out).toMatch(/platform approved action AgentAction:\S+: APPROVED/);
  }, 90_000);

  it('an example exits non-zero when the API refuses it', async () => {
    const env = { ...process.env, PAYMENTS_BASE_URL: own.server.baseUrl, PAYMENTS_CLIENT_ID: own.token.clientId, PAYMENTS_CLIENT_SECRET: 'sk_sandbox_wrong' };
    const failed = await run(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'client/examples/quickstart.ts'], { cwd: root, env, timeout: 60_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('PaymentsApiError');
    expect(failed?.stderr).toContain('401 UNAUTHORIZED');
  }, 90_000);
});
