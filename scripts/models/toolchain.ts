// Runs the compilers and the round-trip programs, and says what to install when one is missing.
import { spawnSync } from 'node:child_process';

export interface Outcome {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Debian packages that provide each tool (CI installs them: .ci/run). */
export const INSTALL: Record<string, string> = {
  python3: 'python3',
  javac: 'openjdk-17-jdk-headless',
  go: 'golang-go',
  dateutil: 'python3-dateutil',
};

export function execute(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Outcome {
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error !== undefined) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    const hint = missing ? ` (not installed: apt-get install ${INSTALL[command] ?? command})` : '';
    return { ok: false, stdout: '', stderr: `${command}: ${result.error.message}${hint}` };
  }
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

/** The first lines of a failed command's output, for the report. */
export const excerpt = (outcome: Outcome, lines = 30) =>
  `${outcome.stderr}${outcome.stdout}`
    .trim()
    .split('\n')
    .slice(0, lines)
    .map((l) => `    ${l}`)
    .join('\n');
