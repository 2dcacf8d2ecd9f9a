// The package as a consumer gets it: `npm pack`, then the tarball installed into a scratch ESM
// project with its runtime dependencies only. Used by the static test of the package and by the
// conformance kit's proofs, which run its command from there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

export const runIn = (cwd: string, cmd: string, args: string[]): string => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface PackedProject {
  /** The scratch project: package.json and node_modules/ with the package installed. */
  dir: string;
  remove(): void;
}

/** Packs the package and installs the tarball into a new scratch project named `name`. */
export function installPacked(name: string): PackedProject {
  const scratch = mkdtempSync(join(tmpdir(), `${name}-`));
  const dir = join(scratch, 'consumer');
  mkdirSync(dir);
  const packed = JSON.parse(runIn(root, 'npm', ['pack', '--json', '--pack-destination', scratch])) as { filename: string }[];
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  runIn(dir, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', join(scratch, packed[0]?.filename ?? '')]);
  return { dir, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}
