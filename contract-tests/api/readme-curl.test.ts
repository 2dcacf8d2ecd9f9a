// The README's curl commands (under "Your API token"), run as written with bash and curl against
// the server, one after the other: each `<id>` placeholder becomes the id of that kind the
// earlier commands' answers returned, as a reader would paste it. Every command must succeed, so
// the README shows a sequence that works. Sent to the server directly (the README's BASE).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { credentials, describeServer, itServer, serverBaseUrl } from '../support/api.ts';

const readme = readFileSync(resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The shell blocks of the section about the API token, split into one command per `curl`. */
function readmeCommands(): string[] {
  const start = readme.indexOf('### Your API token');
  const end = readme.indexOf('\n### ', start + 1);
  const section = readme.slice(start, end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const commands: string[] = [];
  for (const block of blocks) {
    for (const line of block.split('\n')) {
      if (line.startsWith('curl ')) commands.push(line);
      else if (commands.length > 0 && line.trim() !== '' && /^\s/.test(line)) commands[commands.length - 1] += `\n${line}`;
      else if (line.trim() !== '' && !/^(export |BASE=)/.test(line)) throw new Error(`a README line this test does not know: ${line}`);
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

describeServer('the README', () => {
  itServer('its curl commands work as written, in order, each id taken from the answers before it', () => {
    const commands = readmeCommands();
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const ids = new Map<string, string>();
    const env = { ...process.env, PAYMENTS_CLIENT_ID: credentials.clientId, PAYMENTS_CLIENT_SECRET: credentials.clientSecret, BASE: serverBaseUrl };
    // Keys of the suite's earlier runs on a persistent target must not replay: each run its own.
    const run = Date.now().toString(36);
    for (const written of commands) {
      const command = written
        .replace(/([A-Za-z]+):<id[^>]*>/g, (_all, kind: string) => {
          const id = ids.get(kind);
          if (id === undefined) throw new Error(`the README uses a ${kind} id no earlier command returned:\n${written}`);
          return id;
        })
        .replace(/Idempotency-Key: ([\w-]+)/g, `Idempotency-Key: $1-${run}`);
      // curl, as the README calls it, also writes the status on a line of its own.
      const output = execFileSync('bash', ['-c', `curl() { command curl -w '\\n%{http_code}' "$@"; }\n${command}`], { env, encoding: 'utf8' });
      const status = Number(output.slice(output.lastIndexOf('\n') + 1));
      const body = output.slice(0, output.lastIndexOf('\n'));
      expect(status, `${written}\n→ ${body}`).toBeGreaterThanOrEqual(200);
      expect(status, `${written}\n→ ${body}`).toBeLessThan(300);
      collectIds(JSON.parse(body), ids);
    }
  }, 60_000);
});
