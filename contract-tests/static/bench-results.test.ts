// The README's Speed table is the last `npm run bench` run's, copied from bench/results.md as it
// was written: no figure in the README that the benchmark did not print.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const tableOf = (text: string) => text.split('\n').filter((line) => line.startsWith('|')).join('\n');

describe('benchmark results', () => {
  it("the README's Speed table equals the one in bench/results.md", () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const speed = readme.slice(readme.indexOf('\n## Speed'), readme.indexOf('\n## ', readme.indexOf('\n## Speed') + 1));
    const results = tableOf(readFileSync(resolve(root, 'bench', 'results.md'), 'utf8'));
    expect(results).toContain('| Measure | Result | Goal | Met |');
    expect(tableOf(speed)).toBe(results);
  });
});
