// The README's Speed tables are the last `npm run bench` run's and the last `npm run bench -- --scale`
// run's summary, copied from bench/results.md as they were written: no figure in the README that the
// benchmark did not print. (The scale run's table of every request stays in bench/results.md.)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const tableOf = (text: string) => text.split('\n').filter((line) => line.startsWith('|')).join('\n');
const withoutEveryRequest = (text: string) => text.replace(/\n### Every request\n[\s\S]*?(?=<!-- \/bench:scale -->)/, '\n');

describe('benchmark results', () => {
  it("the README's Speed tables equal the ones in bench/results.md", () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const speed = readme.slice(readme.indexOf('\n## Speed'), readme.indexOf('\n## ', readme.indexOf('\n## Speed') + 1));
    const results = tableOf(withoutEveryRequest(readFileSync(resolve(root, 'bench', 'results.md'), 'utf8')));
    expect(results).toContain('| Measure | Result | Goal | Met |');
    expect(tableOf(speed)).toBe(results);
  });
});
