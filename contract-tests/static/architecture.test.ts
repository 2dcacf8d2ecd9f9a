// The server's layering, which the type checker cannot see (server-architecture in the README), and
// the conformance kit's files without an import cycle either:
//   no import cycles, between files or between folders (the root's files counted as one folder)
//   the root's files wire the server together: they may import anything, and nothing imports them
//   context/ what every layer may import (the request context, handler types, units of work):
//            imports nothing but db/ and shared/
//   shared/  pure pieces; imports nothing else of the server
//   db/ and repositories  never import http/ (nor services or handlers)
//   http/    never imports a repository: it goes through services
//   handlers HTTP only: only the operation map imports them, and they never touch a repository
//   only repositories and db/ use kysely at run time, only db/ uses pg or PGlite
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../server/operations.ts';
import { kitSources, serverSources, type SourceFile } from '../support/server-sources.ts';
import { joinAreas, notImplemented } from '../../server/context/handler-types.ts';
import { operations } from '../support/spec.ts';

const all = serverSources;

/** Value imports (not `import type`) of a package. */
const importsValueFrom = (source: string, pkg: string) => new RegExp(`^import\\s+(?!type\\s)[^;]*from\\s+'${pkg}(/[^']*)?';`, 'm').test(source);

const offending = (from: (f: SourceFile) => boolean, to: (imported: string) => boolean) =>
  all.filter(from).flatMap((f) => f.imports.filter(to).map((imported) => `${f.path} → ${imported}`));

const isRepository = (p: string) => p.endsWith('.repository.ts');
const isHandlers = (p: string) => p.endsWith('.handlers.ts');

/** The strongly connected components with more than one member (Tarjan): each is an import cycle. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** A cycle as one line: its members, and the imports that close it (`a.ts → b.ts`). */
function describeCycle(members: string[], edges: Map<string, Set<string>>, via: (from: string, to: string) => string[]): string {
  const inside = new Set(members);
  const links = members.flatMap((from) => [...(edges.get(from) ?? [])].filter((to) => inside.has(to)).flatMap((to) => via(from, to)));
  return `${members.join(' ⇄ ')}\n      ${links.join('\n      ')}`;
}

const folderOf = (path: string) => (path.includes('/') ? (path.split('/')[0] as string) : '(root)');

const fileEdges = new Map(all.map((f) => [f.path, new Set(f.imports.filter((i) => i !== f.path))]));
const folderEdges = new Map<string, Set<string>>();
for (const f of all) {
  const from = folderOf(f.path);
  if (!folderEdges.has(from)) folderEdges.set(from, new Set());
  for (const i of f.imports) if (folderOf(i) !== from) folderEdges.get(from)?.add(folderOf(i));
}
const importsBetween = (fromFolder: string, toFolder: string) =>
  all.filter((f) => folderOf(f.path) === fromFolder).flatMap((f) => f.imports.filter((i) => folderOf(i) === toFolder).map((i) => `${f.path} → ${i}`));

describe('imports point down', () => {
  it('finds a cycle when there is one', () => {
    const edges = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set<string>()]]))).toEqual([]);
  });

  it('between files', () => {
    expect(cycles(fileEdges).map((c) => describeCycle(c, fileEdges, (from, to) => [`${from} → ${to}`]))).toEqual([]);
  });

  it('between folders (the root counted as one): the folders form layers', () => {
    expect(cycles(folderEdges).map((c) => describeCycle(c, folderEdges, importsBetween))).toEqual([]);
  });

  it("nothing imports the root's wiring files", () => {
    expect(offending((f) => f.path.includes('/'), (i) => !i.includes('/'))).toEqual([]);
  });

  it('context/ imports nothing but db/ and shared/', () => {
    expect(offending((f) => f.path.startsWith('context/'), (i) => !['context', 'db', 'shared'].includes(folderOf(i)))).toEqual([]);
  });
});

describe("the conformance kit's imports point down", () => {
  const kitEdges = new Map(kitSources.map((f) => [f.path, new Set(f.imports.filter((i) => i !== f.path))]));
  it('reads the files it checks', () => {
    expect(kitSources.find((f) => f.path === 'http.ts')?.imports).toContain('failure.ts');
  });

  it('between files', () => {
    expect(cycles(kitEdges).map((c) => describeCycle(c, kitEdges, (from, to) => [`${from} → ${to}`]))).toEqual([]);
  });
});

describe('server layering', () => {
  it('reads the files it checks', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.find((f) => f.path === 'http/dispatcher.ts')?.imports).toContain('idempotency/idempotency.service.ts');
  });

  it('shared/ imports nothing of the server outside shared/', () => {
    expect(offending((f) => f.path.startsWith('shared/'), (i) => !i.startsWith('shared/'))).toEqual([]);
  });

  it('db/ and repositories never import http/, services or handlers', () => {
    const lower = (f: SourceFile) => f.path.startsWith('db/') || isRepository(f.path);
    expect(offending(lower, (i) => i.startsWith('http/') || i.endsWith('.service.ts') || isHandlers(i))).toEqual([]);
  });

  it('http/ never imports a repository', () => {
    expect(offending((f) => f.path.startsWith('http/'), isRepository)).toEqual([]);
  });

  it('only the operation map imports handlers, and handlers never import a repository', () => {
    expect(offending((f) => f.path !== 'operations.ts', isHandlers)).toEqual([]);
    expect(offending((f) => isHandlers(f.path), isRepository)).toEqual([]);
  });

  it('only repository files and the database layer use kysely at run time', () => {
    const offenders = all.filter((f) => importsValueFrom(f.source, 'kysely')).filter((f) => !isRepository(f.path) && !f.path.startsWith('db/'));
    expect(offenders.map((f) => f.path)).toEqual([]);
  });

  it('nothing outside the database layer imports pg or PGlite', () => {
    const offenders = all.filter((f) => importsValueFrom(f.source, 'pg') || importsValueFrom(f.source, '@electric-sql/pglite')).filter((f) => !f.path.startsWith('db/'));
    expect(offenders.map((f) => f.path)).toEqual([]);
  });

  it('time comes from the clock: no `new Date()` or `Date.now()` outside shared/clock.ts', () => {
    const offenders = all.filter((f) => f.path !== 'shared/clock.ts' && /new Date\(\)|Date\.now\(\)/.test(f.source.replace(/\/\/.*$/gm, '')));
    expect(offenders.map((f) => f.path)).toEqual([]);
  });

  const COMPUTED_AREAS = new Set(['exchange-rates', 'discoveries']);
  // Transactions are the payments layer's rows: it maps them (payments/payments.mapper.ts) for its webhook events, and every area shows them that way.
  const MAPPED_BELOW = new Set(['transactions']);
  it('every area folder reads the same way: handlers, service, mapper, repository', () => {
    const areas = [...new Set(all.filter((f) => isHandlers(f.path)).map((f) => dirname(f.path)))];
    expect(areas.length).toBeGreaterThan(8);
    for (const area of areas) {
      const name = area.split('/').at(-1);
      const present = new Set(all.filter((f) => dirname(f.path) === area).map((f) => f.path));
      const missing = ['service', 'repository', 'mapper'].filter((role) => !present.has(`${area}/${name}.${role}.ts`));
      // The sandbox area only drives other areas (funding goes through the ledger): no table of its own.
      if (area === 'sandbox') continue;
      // Exchange rates and reachable banks are computed from sandbox tables, not stored: no repository.
      expect(missing, area).toEqual(COMPUTED_AREAS.has(area) ? ['repository'] : MAPPED_BELOW.has(area) ? ['mapper'] : []);
    }
  });

  it('handlers take their types from the generated spec types', () => {
    const areaHandlers = all.filter((f) => isHandlers(f.path));
    for (const f of areaHandlers) expect(f.source, f.path).toMatch(/AreaHandlers</);
  });
});

describe('the operation map', () => {
  it('has exactly the operations of the contract', () => {
    expect(Object.keys(handlers).sort()).toEqual(operations.map((o) => o.operation.operationId).sort());
    // Every operation is served: none answers 501 NOT_IMPLEMENTED.
    expect(Object.entries(handlers).filter(([, h]) => h === notImplemented).map(([id]) => id)).toEqual([]);
  });

  it('refuses two areas claiming one operation', () => {
    const a = { getToken: notImplemented };
    const b = { getToken: notImplemented, listTokens: notImplemented };
    expect(() => joinAreas(a, b)).toThrow('operation getToken is claimed by two areas');
    expect(Object.keys(joinAreas({ getToken: notImplemented }, { listTokens: notImplemented }))).toEqual(['getToken', 'listTokens']);
  });
});
