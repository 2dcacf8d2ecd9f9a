// The benchmark's results: one row per goal, printed and written to bench/results.md (the README
// shows the same table; static/bench-results.test.ts keeps the two equal).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
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

export function writeResults(rows: Row[], notes: string[]): string {
  const path = resolve(import.meta.dirname, '..', '..', 'bench', 'results.md');
  const cpu = cpus();
  const text = [
    '# Benchmark results',
    '',
    `\`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, server, database and load generator on the same machine.`,
    '',
    table(rows),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  writeFileSync(path, text);
  return path;
}
