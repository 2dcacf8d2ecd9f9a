// The benchmark's results: one row per goal, printed and written to bench/results.md, one section per
// kind of run (figures the README quotes are these: static/bench-results.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';

export interface Row {
  measure: string;
  result: string;
  goal: string;
  /** undefined: measured for information, no goal. */
  met: boolean | undefined;
}

/** Truncated, not rounded: 4.997x against a goal of 5x must not read 5.00x (the 1e-9 keeps 0.29 from reading 0.28). */
export const ratio = (x: number) => `${(Math.floor(x * 100 + 1e-9) / 100).toFixed(2)}x`;
export const ms = (x: number) => `${Math.round(x)} ms`;

export function table(rows: Row[]): string {
  const lines = ['| Measure | Result | Goal | Met |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.measure} | ${r.result} | ${r.goal} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

/**
 * Writes one section of bench/results.md (`speed`: `npm run bench`; `scale`: `npm run bench -- --scale`;
 * `pooler`: `npm run bench`, or alone `-- --pooler`), between its markers, keeping the others as the
 * last run of their kind left them.
 */
export function writeSection(section: 'speed' | 'scale' | 'pooler', text: string): string {
  const path = resolve(import.meta.dirname, '..', '..', 'bench', 'results.md');
  const start = `<!-- bench:${section} -->`;
  const end = `<!-- /bench:${section} -->`;
  const found = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  // A file written before there were sections holds a speed run.
  const TITLE = '# Benchmark results\n';
  const old = found.includes('<!-- bench:') || !found.startsWith(TITLE) ? found : `${TITLE}\n<!-- bench:speed -->\n## Speed\n\n${found.slice(TITLE.length).trim()}\n<!-- /bench:speed -->\n`;
  const block = `${start}\n${text.trim()}\n${end}`;
  const at = old.indexOf(start);
  const next = at === -1 ? `${old.trimEnd()}\n\n${block}\n` : `${old.slice(0, at)}${block}${old.slice(old.indexOf(end) + end.length)}`;
  writeFileSync(path, next);
  return path;
}

/** Where and on what the run was made. */
export function machine(command: string): string {
  const cpu = cpus();
  const [one, five, fifteen] = loadavg();
  return `\`${command}\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, server, database and load generator on the same machine (load average ${one?.toFixed(1)} · ${five?.toFixed(1)} · ${fifteen?.toFixed(1)} at the end).`;
}

export function writeResults(rows: Row[], notes: string[]): string {
  return writeSection('speed', ['## Speed', '', machine('npm run bench'), '', table(rows), '', ...notes.map((n) => `- ${n}`)].join('\n'));
}
