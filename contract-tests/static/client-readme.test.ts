// The README's TypeScript snippet is the quick-start example, which the contract suite runs
// (contract-tests/api/client-examples.test.ts), so the README shows code that works.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

describe('README client section', () => {
  it('its TypeScript snippet is client/examples/quickstart.ts exactly', () => {
    const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(snippets).toEqual([readFileSync(resolve(root, 'client/examples/quickstart.ts'), 'utf8')]);
  });

  it('names every example that exists', () => {
    for (const name of ['quickstart', 'payout', 'agent', 'webhook-receiver']) {
      expect(readme).toContain(`\`${name}\``);
      expect(() => readFileSync(resolve(root, `client/examples/${name}.ts`))).not.toThrow();
    }
  });
});
