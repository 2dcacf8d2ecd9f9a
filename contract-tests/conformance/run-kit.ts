// Runs the installed payments-conformance command as a team's CI would, and reads what it says.
import { execFile } from 'node:child_process';
import type { Stage } from './global-setup.ts';

export interface KitRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line, `conformance: P passed, F failed, S skipped[, E expected failures]`, read. */
  summary: { passed: number; failed: number; skipped: number; expected?: number } | undefined;
  ms: number;
}

/** The kit against `baseUrl` with the stage's token and these further arguments; never throws on its exit status. */
export function runKit(stage: Stage, baseUrl: string, args: string[], timeoutMs = 240_000): Promise<KitRun> {
  const started = Date.now();
  return new Promise((done, fail) => {
    // Not execFileSync: the broken proxies run in this process and must keep answering.
    const child = execFile(process.execPath, [stage.kit, '--base-url', baseUrl, '--client-id', stage.clientId, '--client-secret', stage.clientSecret, ...args], {
      cwd: stage.project,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return fail(new Error(`the kit did not end: ${error.message}\n${stdout}\n${stderr}`));
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      const m = /^conformance: (\d+) passed, (\d+) failed, (\d+) skipped(?:, (\d+) expected failures?)?$/.exec(last);
      const summary = m === null ? undefined : { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]), ...(m[4] === undefined ? {} : { expected: Number(m[4]) }) };
      done({ code: child.exitCode, stdout, stderr, summary, ms: Date.now() - started });
    });
  });
}
