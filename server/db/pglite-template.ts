// A new PGlite database (in memory, as the suite's and the benchmark's, or in a folder that holds
// none yet, as `npm start`'s first) starts from a snapshot of one freshly migrated when there is
// one: PGlite's initdb and the migrations are most of its start. The snapshot
// lives in the system's temporary folder, named after the PGlite version and the migrations' source,
// so a change to either makes a new one; it holds the schema only, never data. Each is about 40 MB:
// one not used for a day is deleted when a new one is written.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { machineNow } from '../shared/clock.ts';

const migrations = resolve(import.meta.dirname, 'migrations');
const PREFIX = 'payments-sandbox-schema-';
const UNUSED_MS = 24 * 60 * 60 * 1000;

function templatePath(): string {
  const hash = createHash('sha256');
  // Its package.json is not exported: read it beside the resolved entry point (dist/ under the package).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(join(entry.slice(0, entry.lastIndexOf('/dist/')), 'package.json')));
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)));
  return join(tmpdir(), `${PREFIX}${hash.digest('hex').slice(0, 16)}.tar`);
}

export function migratedTemplate(): Blob | undefined {
  const path = templatePath();
  if (!existsSync(path)) return undefined;
  const now = machineNow();
  // Its modification time says when it was last used (see forgetUnusedTemplates).
  utimesSync(path, now, now);
  return new Blob([readFileSync(path)]);
}

/** Snapshots of other PGlite versions or migrations, not used for a day (another checkout may still use one). */
function forgetUnusedTemplates(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(PREFIX) || path === keep) continue;
    try {
      if (machineNow().getTime() - statSync(path).mtimeMs > UNUSED_MS) rmSync(path, { force: true });
    } catch {
      // Deleted meanwhile by another process: nothing to do.
    }
  }
}

/** Keeps a snapshot of a database just migrated; written aside and renamed, so no reader sees half of one. */
export async function saveMigratedTemplate(pglite: PGlite): Promise<void> {
  const path = templatePath();
  if (existsSync(path)) return;
  const dump = await pglite.dumpDataDir('none');
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  forgetUnusedTemplates(path);
}
