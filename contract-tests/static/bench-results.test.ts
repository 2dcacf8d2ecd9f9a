// The README's Speed section quotes the last `npm run bench` run, bench/results.md as it was
// written: no figure in the README that the benchmark did not print.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

describe('benchmark results', () => {
  it("every figure of the README's Speed section is one bench/results.md printed", () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Speed');
    const speed = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const results = readFileSync(resolve(root, 'bench', 'results.md'), 'utf8');
    const figures = speed.match(/\d[\d,.]*(?: ?(?:x|ms|s)\b)/g) ?? [];
    expect(figures.length).toBeGreaterThan(2);
    expect(figures.filter((figure) => !results.includes(figure))).toEqual([]);
  });
});
