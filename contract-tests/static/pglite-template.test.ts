// The snapshot of a migrated PGlite database that in-memory servers start from: written once per
// PGlite version and migration set, used by the next start, and an old one (another version's,
// unused for a day) deleted when a new one is written, so the temporary folder does not fill up
// with 40 MB files. TMPDIR points at a folder of this file's own.
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedTemplate, saveMigratedTemplate } from '../../server/db/pglite-template.ts';

const systemTmp = process.env.TMPDIR;
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'template-test-'));
  process.env.TMPDIR = dir;
});
afterAll(() => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  rmSync(dir, { recursive: true, force: true });
});

describe('the migrated PGlite snapshot', () => {
  it('is written once, used by the next start, and old snapshots unused for a day are deleted', async () => {
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    const stale = join(dir, 'payments-sandbox-schema-0000000000000000.tar');
    const recent = join(dir, 'payments-sandbox-schema-1111111111111111.tar');
    const unrelated = join(dir, 'something-else.tar');
    for (const path of [stale, recent, unrelated]) writeFileSync(path, 'x');
    for (const path of [stale, unrelated]) utimesSync(path, dayAgo, dayAgo);
    expect(migratedTemplate()).toBeUndefined();

    const pglite = await PGlite.create('memory://');
    try {
      await pglite.exec('create table marker (id int)');
      await saveMigratedTemplate(pglite);
    } finally {
      await pglite.close();
    }
    const written = readdirSync(dir).filter((name) => name.startsWith('payments-sandbox-schema-') && ![stale, recent].includes(join(dir, name)));
    expect(written).toHaveLength(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);

    const template = migratedTemplate();
    expect(template).toBeDefined();
    const restored = await PGlite.create('memory://', { loadDataDir: template });
    try {
      expect((await restored.query("select to_regclass('marker') is not null as present")).rows).toEqual([{ present: true }]);
    } finally {
      await restored.close();
    }
  }, 60_000);
});
