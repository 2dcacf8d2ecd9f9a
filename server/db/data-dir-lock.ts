// One server process per PGlite data folder. PGlite has no lock of its own: two processes on one
// folder both start, both write, and lose each other's data. The lock is a file next to the folder
// holding the owner's pid; a file left by a process that no longer runs (kill -9) is taken over.
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export class DataDirLockedError extends Error {}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What link() fails with on a file system without hard links (FAT, exFAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates `to` as a link to `from`, or throws EEXIST; without hard links, `to` is created and then written. */
function linkOrCreate(from: string, to: string, content: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    writeFileSync(to, content, { flag: 'wx' });
  }
}

/**
 * Creates `path` holding this process's pid, or throws EEXIST. The pid is written to a file of this
 * process's own first and then linked into place: a file created and then written could be read
 * empty in between, and an empty lock looked like one left by a process that is gone.
 */
function claim(path: string): void {
  const draft = `${path}.${process.pid}`;
  const content = `${process.pid}\n`;
  writeFileSync(draft, content);
  try {
    linkOrCreate(draft, path, content);
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Removes the lock `path` holding `stale`, left by a process that is gone. Moved aside first, not
 * removed: when several processes take it over at once, one that read the stale file before
 * another replaced it would otherwise remove the new owner's lock. A process that moves a file
 * other than the one it judged stale puts it back.
 */
function takeOver(path: string, stale: string): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // moved by another meanwhile
    throw err;
  }
  try {
    const moved = readFileSync(aside, 'utf8');
    if (moved !== stale) linkOrCreate(aside, path, moved);
  } catch (err) {
    // EEXIST: a third process claimed the place meanwhile; the one whose lock this was will find out.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Takes the lock of `dir` or throws DataDirLockedError; returns the function that releases it. */
export function acquireDataDirLock(dir: string): () => void {
  const path = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      claim(path);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        rmSync(path, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let held: string;
      try {
        held = readFileSync(path, 'utf8');
      } catch {
        continue; // removed meanwhile: try again
      }
      const owner = Number(held.trim());
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `Another server process (pid ${owner}) is using the embedded database in ${dir}. ` +
            'Stop it first, or give this one its own PGLITE_DATA_DIR (or a DATABASE_URL: PostgreSQL takes several processes).',
        );
      }
      takeOver(path, held); // left behind by a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${path}; is another server starting at the same time?`);
}
