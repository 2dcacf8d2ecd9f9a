// The embedded database's folder lock (server/db/data-dir-lock.ts) between processes: two
// processes take and release one folder's lock as fast as they can, and each marks the moments it
// holds it with a file only one can create. A lock file ever read empty (created, not yet written)
// was taken for one left by a process that is gone, and both held the lock.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const lockModule = resolve(import.meta.dirname, '..', '..', 'server', 'db', 'data-dir-lock.ts');
const folder = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Tally {
  held: number;
  refused: number;
  overlaps: number;
}

/**
 * A process taking the lock `rounds` times; counts when it held it, was refused, or held it together
 * with another. With `deadPid`, every other time it holds the lock it leaves it as a crashed process
 * would: the lock file names `deadPid` (a process that has ended) and is never released.
 */
function contender(dataDir: string, marker: string, rounds: number, deadPid?: number): Promise<Tally> {
  const program = `
    import { renameSync, rmSync, writeFileSync } from 'node:fs';
    import { acquireDataDirLock, DataDirLockedError } from ${JSON.stringify(lockModule)};
    const tally = { held: 0, refused: 0, overlaps: 0 };
    // A lock left as a crashed process would leave it is never released: its 'exit' listener stays.
    process.setMaxListeners(0);
    for (let i = 0; i < ${rounds}; i++) {
      let release;
      try {
        release = acquireDataDirLock(${JSON.stringify(dataDir)});
      } catch (err) {
        if (!(err instanceof DataDirLockedError)) throw err;
        tally.refused++;
        continue;
      }
      try {
        writeFileSync(${JSON.stringify(marker)}, '', { flag: 'wx' });
        tally.held++;
        rmSync(${JSON.stringify(marker)});
      } catch {
        tally.overlaps++;
      }
      if (${deadPid ?? 0} > 0 && tally.held % 2 === 0) {
        writeFileSync(${JSON.stringify(`${dataDir}.lock.crash`)} + process.pid, '${deadPid ?? 0}\\n');
        renameSync(${JSON.stringify(`${dataDir}.lock.crash`)} + process.pid, ${JSON.stringify(`${dataDir}.lock`)});
        continue;
      }
      release();
    }
    process.stdout.write(JSON.stringify(tally));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((done, fail) => child.once('close', (code) => (code === 0 ? done(JSON.parse(out) as Tally) : fail(new Error(`contender exited with ${code}`)))));
}

describe('the embedded database folder lock', () => {
  it('is never held by two processes at once, however fast they take and release it', async () => {
    const dataDir = join(folder, 'pglite');
    const marker = join(folder, 'holder');
    const tallies = await Promise.all([contender(dataDir, marker, 4000), contender(dataDir, marker, 4000)]);
    expect(tallies.map((t) => t.overlaps)).toEqual([0, 0]);
    // They did contend: each held the lock, and at least one was refused while the other held it.
    for (const t of tallies) expect(t.held).toBeGreaterThan(0);
    expect(tallies[0]!.refused + tallies[1]!.refused).toBeGreaterThan(0);
  }, 60_000);

  it('left by a process that is gone, is taken over by one process only, however many try at once', async () => {
    const ended = spawn(process.execPath, ['-e', '']);
    await new Promise((done) => ended.once('close', done));
    const dataDir = join(folder, 'pglite-crashed');
    const marker = join(folder, 'holder-crashed');
    const tallies = await Promise.all([contender(dataDir, marker, 4000, ended.pid), contender(dataDir, marker, 4000, ended.pid)]);
    expect(tallies.map((t) => t.overlaps)).toEqual([0, 0]);
    for (const t of tallies) expect(t.held).toBeGreaterThan(2);
  }, 60_000);
});
