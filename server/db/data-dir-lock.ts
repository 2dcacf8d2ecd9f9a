// One server process per PGlite data folder. PGlite has no lock of its own: two processes on one
// folder both start, both write, and lose each other's data. The lock is a file next to the folder
// holding the owner's pid; a file left by a process that no longer runs (kill -9) is taken over.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

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

/**
 * Creates `path` holding this process's pid, or throws EEXIST. The pid is written to a file of this
 * process's own first and then linked into place: a file created and then written could be read
 * empty in between, and an empty lock looked like one left by a process that is gone.
 */
function claim(path: string): void {
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, `${process.pid}\n`);
  try {
    linkSync(draft, path);
  } finally {
    rmSync(draft, { force: true });
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
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(path, 'utf8').trim());
      } catch {
        continue; // removed meanwhile: try again
      }
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DataDirLockedError(
          `Another server process (pid ${owner}) is using the embedded database in ${dir}. ` +
            'Stop it first, or give this one its own PGLITE_DATA_DIR (or a DATABASE_URL: PostgreSQL takes several processes).',
        );
      }
      rmSync(path, { force: true }); // left behind by a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not take the lock ${path}; is another server starting at the same time?`);
}
