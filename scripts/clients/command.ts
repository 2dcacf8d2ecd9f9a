// Runs one command of the clients check: its output (stdout and stderr as they came), its status,
// its time. Asynchronous, so a sandbox server started by the check keeps being served meanwhile.
import { spawn } from 'node:child_process';

export interface Ran {
  ok: boolean;
  output: string;
  seconds: number;
  /** The command line, for the report. */
  line: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (and failed) after this long. */
  timeoutMs?: number;
}

/** In the output of a command whose program is not on PATH. */
export const NOT_INSTALLED = 'not installed (npm run setup:machine)';

export function run(command: string, args: string[], options: RunOptions): Promise<Ran> {
  const started = performance.now();
  const line = [command, ...args].join(' ');
  return new Promise((done) => {
    // Own process group, so a timeout also ends what the command started (mvn's JVM, go's test binary).
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 15 * 60_000);
    const finish = (ok: boolean, extra = '') => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      done({ ok, output: Buffer.concat(chunks).toString('utf8') + extra, seconds, line });
    };
    child.on('error', (error: NodeJS.ErrnoException) => finish(false, `\n${command}: ${error.code === 'ENOENT' ? NOT_INSTALLED : error.message}\n`));
    child.on('close', (code) => finish(code === 0 && !timedOut, timedOut ? `\n${line}: killed after ${(options.timeoutMs ?? 0) / 1000} s\n` : ''));
  });
}

/** The last lines of a command's output, indented, for a failure's report. */
export const tail = (ran: Ran, lines = 40): string =>
  ran.output
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((l) => `    ${l}`)
    .join('\n');
