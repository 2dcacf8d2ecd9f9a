// Layering rules of the server that the type checker cannot see: only repository files (and the
// database layer) build queries, and handlers never import the database driver.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const server = resolve(import.meta.dirname, '..', '..', 'server');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });

/** Value imports (not `import type`) of a module. */
const importsValueFrom = (source: string, module: string) =>
  new RegExp(`^import\\s+(?!type\\s)[^;]*from\\s+'${module}(/[^']*)?';`, 'm').test(source);

describe('server layering', () => {
  const all = files(server).map((path) => ({ path: relative(server, path), source: readFileSync(path, 'utf8') }));

  it('only repository files and the database layer use kysely at run time', () => {
    const offenders = all
      .filter((f) => importsValueFrom(f.source, 'kysely'))
      .filter((f) => !f.path.endsWith('.repository.ts') && !f.path.startsWith('db/'))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('nothing outside the database layer imports pg or PGlite', () => {
    const offenders = all
      .filter((f) => importsValueFrom(f.source, 'pg') || importsValueFrom(f.source, '@electric-sql/pglite'))
      .filter((f) => !f.path.startsWith('db/'))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('handlers take their types from the generated spec types', () => {
    const handlers = all.filter((f) => f.path.endsWith('.handlers.ts'));
    expect(handlers.length).toBeGreaterThan(3);
    for (const f of handlers) expect(f.source, f.path).toMatch(/AreaHandlers</);
  });
});
