// Starts Prism (`prism mock` or `prism proxy`) on a free port for the suite and for the oracle's
// self-test, and waits until it answers.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.ts';

const root = resolve(import.meta.dirname, '..', '..');

export interface PrismProcess {
  origin: string;
  output(): string;
  stop(): void;
  /** Resolves with the exit code (or signal) once Prism has ended, for whatever reason. */
  exited: Promise<number | string | null>;
}

/** `args` are Prism's command and its arguments before the port, e.g. `['proxy', spec, upstream, '--errors']`. */
export async function startPrism(args: string[], timeoutMs = 90_000): Promise<PrismProcess> {
  const port = await freePort();
  // Own process group, so stopping it also stops what Prism forks.
  const child = spawn(join(root, 'node_modules', '.bin', 'prism'), [...args, '-p', String(port), '-h', '127.0.0.1'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const exited = new Promise<number | string | null>((done) => child.on('exit', (code, signal) => done(code ?? signal)));
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${log}`);
    // Any answer will do (a proxy forwards this one, or refuses it for lack of credentials).
    if ((await fetch(`${origin}/config`).catch(() => undefined)) !== undefined) return { origin, output: () => log, stop, exited };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`prism did not start within ${timeoutMs / 1000} s:\n${log}`);
}
