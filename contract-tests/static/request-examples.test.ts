// Every JSON request example of the spec, compiled as the body of its operation with the client's
// generated types: an example a TypeScript integrator could not send as written (a type that lost
// a union, a required field the schema forgot) fails here, naming the operation and the example.
// The compiler also checks one deliberately wrong body, so this test cannot pass by seeing nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
type Operation = { operationId?: string; requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } };
const bundle = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };

interface Example {
  operationId: string;
  name: string;
  value: unknown;
}

const examples: Example[] = Object.values(bundle.paths).flatMap((item) =>
  Object.values(item).flatMap((op) =>
    Object.entries(op.requestBody?.content?.['application/json']?.examples ?? {}).flatMap(([name, example]) =>
      op.operationId === undefined || example.value === undefined ? [] : [{ operationId: op.operationId, name, value: example.value }],
    ),
  ),
);
/** Must not compile: a quote source without its accountId. */
const broken: Example = { operationId: 'createQuote', name: 'deliberately broken', value: { source: { sourceType: 'ACCOUNT' }, destination: { destinationType: 'ACCOUNT', accountId: 'x' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1 } };

const dir = mkdtempSync(join(tmpdir(), 'request-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compiles one file with a declaration per example; the failures by example. */
function compile(list: Example[]): Map<number, string[]> {
  const file = join(dir, 'examples.ts');
  const header = [
    `import type { operations } from ${JSON.stringify(join(root, 'generated', 'openapi.js'))};`,
    `type Body<K extends keyof operations> = NonNullable<operations[K] extends { requestBody?: infer R } ? R : never> extends { content: { 'application/json': infer B } } ? B : never;`,
  ];
  const lines = list.map((e, i) => `export const example${i}: Body<${JSON.stringify(e.operationId)}> = ${JSON.stringify(e.value)};`);
  writeFileSync(file, [...header, ...lines].join('\n'));
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const failures = new Map<number, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const line = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const index = line - header.length;
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    failures.set(index, [...(failures.get(index) ?? []), message.split('\n')[0] ?? message]);
  }
  return failures;
}

describe('request examples type-check as bodies of the typed client', () => {
  const failures = compile([...examples, broken]);

  it('covers the request examples of the spec', () => {
    expect(examples.length).toBeGreaterThan(40);
    expect(examples.some((e) => e.operationId === 'createQuote')).toBe(true);
  });

  it('every example compiles', () => {
    const report = [...failures].filter(([i]) => i < examples.length).map(([i, messages]) => `${examples[i]?.operationId ?? 'file'} / ${examples[i]?.name ?? String(i)}: ${messages.join('; ')}`);
    expect(report).toEqual([]);
  });

  it('a deliberately wrong body does not', () => {
    expect(failures.get(examples.length)?.join(' ')).toMatch(/accountId/);
  });
});
