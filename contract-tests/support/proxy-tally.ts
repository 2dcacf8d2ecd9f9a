// What the Prism proxy did over a run, recorded by the test workers (one line per event in a file,
// as the workers are separate processes) and summed up by the reporter at the end.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const file = resolve(import.meta.dirname, '..', '..', '.tmp', 'prism-proxy.log');

export type ProxyEvent =
  /** A response the proxy checked (whatever it found). */
  | { event: 'checked' }
  | { event: 'violation'; where: string; details: string }
  /** Prism refused the request as invalid; the server, asked directly, answered `status`. */
  | { event: 'refused'; type: string; status: number }
  /** Sent straight to the server: Prism cannot pass this request or answer on unchanged. */
  | { event: 'direct'; reason: string };

export function resetProxyTally(): void {
  rmSync(file, { force: true });
  mkdirSync(dirname(file), { recursive: true });
}

export const recordProxyEvent = (e: ProxyEvent): void => appendFileSync(file, `${JSON.stringify(e)}\n`);

const countBy = (items: string[]): string =>
  [...new Set(items)]
    .sort()
    .map((k) => `${k}: ${items.filter((i) => i === k).length}`)
    .join(', ');

/** The run's summary lines, or none when nothing went through the proxy. */
export function proxySummary(): string[] {
  if (!existsSync(file)) return [];
  const events = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProxyEvent);
  const checked = events.filter((e) => e.event === 'checked').length;
  const violations = events.flatMap((e) => (e.event === 'violation' ? [e] : []));
  const refused = events.flatMap((e) => (e.event === 'refused' ? [e] : []));
  const direct = events.flatMap((e) => (e.event === 'direct' ? [e] : []));
  const lines = [`prism proxy: ${checked} requests checked, ${violations.length} violations`];
  // The first few say what is wrong; each failed test has the rest.
  for (const v of violations.slice(0, 10)) lines.push(`  ${v.where}:\n    ${v.details.replaceAll('\n', '\n    ')}`);
  if (violations.length > 10) lines.push(`  and ${violations.length - 10} more (see the failed tests)`);
  // Which refusal of Prism's met which answer of the server's, e.g. `UNPROCESSABLE_ENTITY → 415: 35`.
  const pairs = (rs: typeof refused) => countBy(rs.map((r) => `${r.type} → ${r.status}`));
  const agreed = refused.filter((r) => r.status >= 400 && r.status < 500);
  const disputed = refused.filter((r) => !agreed.includes(r));
  if (agreed.length > 0) lines.push(`  ${agreed.length} requests refused by Prism, resent to the server, which refused them too (${pairs(agreed)})`);
  if (disputed.length > 0) lines.push(`  ${disputed.length} requests refused by Prism but not by the server, each failing its test (${pairs(disputed)})`);
  if (direct.length > 0) lines.push(`  ${direct.length} requests sent straight to the server, unchecked by Prism (${countBy(direct.map((d) => d.reason))})`);
  return lines;
}
