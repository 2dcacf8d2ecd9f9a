// The curl commands of the README (under "The token"), of the quickstart guide and of the sandbox
// guide's simulations, run as written with bash and curl against the server, one after the other:
// each `<id>` placeholder becomes the id of that kind the earlier commands' answers returned, as a
// reader would paste it. Every command
// must succeed, so each shows a sequence that works. Sent to the server directly (their BASE).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';

const root = resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const tokenSection = readme.slice(readme.indexOf('\n## The token'), readme.indexOf('\n## ', readme.indexOf('\n## The token') + 1));
const quickstart = readFileSync(resolve(root, 'spec', 'guides', 'quickstart.md'), 'utf8');
const sandboxGuide = readFileSync(resolve(root, 'spec', 'guides', 'sandbox.md'), 'utf8');
const simulations = sandboxGuide.slice(sandboxGuide.indexOf('\n## Simulations'));

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

/** Every `Kind:uuid` id in an answer, by kind; a later one of a kind replaces an earlier one. */
function collectIds(value: unknown, ids: Map<string, string>): void {
  if (typeof value === 'string') {
    const match = /^([A-Za-z]+):[0-9a-f-]{36}$/.exec(value);
    if (match?.[1] !== undefined) ids.set(match[1], value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectIds(item, ids);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collectIds(item, ids);
  }
}

function runInOrder(commands: readonly string[]): void {
  const ids = new Map<string, string>();
  const env = {
    ...process.env,
    PAYMENTS_CLIENT_ID: credentials.clientId,
    PAYMENTS_CLIENT_SECRET: credentials.clientSecret,
    AUTH: `${credentials.clientId}:${credentials.clientSecret}`,
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
    collectIds(JSON.parse(body), ids);
  }
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
});
