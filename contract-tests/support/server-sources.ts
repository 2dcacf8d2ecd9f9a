// The server's source files and the server files each imports, for the static tests of its layering
// (architecture.test.ts, payments-layer.test.ts); the conformance kit's the same way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const serverRoot = resolve(import.meta.dirname, '..', '..', 'server');

export interface SourceFile {
  /** Relative to server/. */
  path: string;
  source: string;
  /** Server files it imports, relative to server/: type-only, side-effect only and dynamic imports included. */
  imports: string[];
}

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` of a relative path. */
const IMPORT = /(?:^\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s+)?|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm;

/** The .ts files under `root` and what each imports under it, paths relative to `root`. */
const sourcesUnder = (root: string): SourceFile[] =>
  files(root).map((full) => {
    const source = readFileSync(full, 'utf8');
    const imports = [...source.matchAll(IMPORT)]
      .map((m) => relative(root, resolve(dirname(full), m[1] as string)))
      .filter((p) => !p.startsWith('..'));
    return { path: relative(root, full), source, imports };
  });

export const serverSources: SourceFile[] = sourcesUnder(serverRoot);

export const kitRoot = resolve(import.meta.dirname, '..', 'kit');

/** The conformance kit's files (contract-tests/kit/), relative to it. */
export const kitSources: SourceFile[] = sourcesUnder(kitRoot);
