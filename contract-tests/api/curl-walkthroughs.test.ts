// The curl commands of the README (under "The token"), of the quickstart guide and of the sandbox
// guide's simulations, run as written with bash and curl against the server, one after the other:
// each `<id>` placeholder becomes the id of that kind the earlier commands' answers returned, as a
// reader would paste it. Every command
// must succeed, so each shows a sequence that works. Sent to the server directly (their BASE).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { collectIds } from '../support/collect-ids.ts';
import { controlsOrigin, credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';

const root = resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const tokenSection = readme.slice(readme.indexOf('\n## The token'), readme.indexOf('\n## ', readme.indexOf('\n## The token') + 1));
const quickstart = readFileSync(resolve(root, 'spec', 'guides', 'quickstart.md'), 'utf8');
const sandboxGuide = readFileSync(resolve(root, 'spec', 'guides', 'sandbox.md'), 'utf8');
const simulations = sandboxGuide.slice(sandboxGuide.indexOf('\n## Simulations'));
const testingSection = sandboxGuide.slice(sandboxGuide.indexOf('\n## Testing your integration'), sandboxGuide.indexOf('\n## Simulations'));

/** The shell blocks of a text, split into one command per `curl`. */
function curlCommands(section: string): string[] {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const commands: string[] = [];
  for (const block of blocks) {
    for (const line of block.split('\n')) {
      if (line.startsWith('curl ')) commands.push(line);
      else if (commands.length > 0 && line.trim() !== '' && /^\s/.test(line)) commands[commands.length - 1] += `\n${line}`;
      else if (line.trim() !== '' && !/^(export |BASE=|AUTH=)/.test(line)) throw new Error(`a line this test does not know: ${line}`);
    }
  }
  return commands;
}

/** Runs the commands in order, as `token` (the suite's by default); returns their answers. */
function runInOrder(commands: readonly string[], token = credentials): unknown[] {
  const ids = new Map<string, string>();
  const answers: unknown[] = [];
  const env = {
    ...process.env,
    PAYMENTS_CLIENT_ID: token.clientId,
    PAYMENTS_CLIENT_SECRET: token.clientSecret,
    AUTH: `${token.clientId}:${token.clientSecret}`,
    BASE: serverBaseUrl,
  };
  // Keys of the suite's earlier runs on a persistent target must not replay: each run its own.
  const run = Date.now().toString(36);
  for (const written of commands) {
    const command = written
      .replace(/([A-Za-z]+):<id[^>]*>/g, (_all, kind: string) => {
        const id = ids.get(kind);
        if (id === undefined) throw new Error(`a ${kind} id no earlier command returned:\n${written}`);
        return id;
      })
      .replace(/Idempotency-Key: ([\w-]+)/g, `Idempotency-Key: $1-${run}`)
      // The README names the local server's base: the suite's server is elsewhere.
      .replace('http://127.0.0.1:3000/2025-10-13', '$BASE');
    // curl, as the text calls it, also writes the status on a line of its own.
    const output = execFileSync('bash', ['-c', `curl() { command curl -w '\\n%{http_code}' "$@"; }\n${command}`], { env, encoding: 'utf8' });
    const status = Number(output.slice(output.lastIndexOf('\n') + 1));
    const body = output.slice(0, output.lastIndexOf('\n'));
    expect(status, `${written}\n→ ${body}`).toBeGreaterThanOrEqual(200);
    expect(status, `${written}\n→ ${body}`).toBeLessThan(300);
    const answer: unknown = JSON.parse(body);
    answers.push(answer);
    collectIds(answer, ids);
  }
  return answers;
}

describeServer('the curl walkthroughs', () => {
  itServer("the README's curl command works as written", () => {
    const commands = curlCommands(tokenSection);
    expect(commands.length).toBe(1);
    runInOrder(commands);
  });

  itServer("the quickstart guide's curl commands work as written, in order, each id taken from the answers before it", () => {
    const commands = curlCommands(quickstart);
    expect(commands.length).toBe(6);
    runInOrder(commands);
  }, 60_000);

  itServer("the sandbox guide's simulations work as written, in order: a receipt, a payout failed, one returned, a name check answered, a review decided", () => {
    const commands = curlCommands(simulations);
    expect(commands.length).toBe(13);
    runInOrder(commands);
  }, 60_000);

  // On a platform of its own: advancing the suite's platform's clock would age the other files' objects.
  itServer("the Sandbox guide's testing walkthrough works as written: the clock brings the payout's failure, the return simulation a payout's return", async () => {
    const res = await fetch(`${controlsOrigin(serverBaseUrl)}/__test/platforms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": "Guide platform"}' });
    expect(res.status).toBe(200);
    const token = (await res.json()) as { clientId: string; clientSecret: string };
    const commands = curlCommands(testingSection);
    expect(commands.length).toBe(13);
    const answers = runInOrder(commands, token) as Record<string, unknown>[];
    const [payout, clock, advanced, failed, account] = answers.slice(4);
    expect(payout).toMatchObject({ status: 'PENDING' });
    expect((advanced?.offsetMs as number) - (clock?.offsetMs as number)).toBe(30_000);
    expect(failed).toMatchObject({ id: payout?.id, status: 'FAILED', failureReason: 'BANK_REJECTED' });
    expect(Date.parse(failed?.updatedAt as string) - Date.parse(failed?.createdAt as string)).toBeGreaterThanOrEqual(30_000);
    expect(account).toMatchObject({ balance: { amount: 10_000 } });
    const [, completed, returned, refunded] = answers.slice(9);
    expect(completed).toMatchObject({ status: 'COMPLETED' });
    expect(returned).toMatchObject({ id: completed?.id, status: 'FAILED', failureReason: 'PAYMENT_RETURNED', settledAt: completed?.settledAt });
    expect(refunded).toMatchObject({ balance: { amount: 10_000 } });
  }, 60_000);
});
